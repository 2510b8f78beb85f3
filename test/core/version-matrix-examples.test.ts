/**
 * Every default image of the version matrix is what at least one example synthesizes: a default
 * that no example runs is a default nothing shows, and the examples' YAML diff on a library
 * upgrade (the way users see a default move) would not show it either.
 */
import { DEFAULT_IMAGES } from '../../src/core/version-matrix';
import { exampleEntries, synthesizeExample } from '../envtest/examples';

jest.setTimeout(300_000);

/** Every string in `x` (images sit in containers, Dynamo services, FlexInfer Models, endpoint picker Deployments). */
function strings(x: unknown, out: Set<string>): Set<string> {
  if (typeof x === 'string') out.add(x);
  else if (Array.isArray(x)) x.forEach((v) => strings(v, out));
  else if (x && typeof x === 'object') Object.values(x).forEach((v) => strings(v, out));
  return out;
}

test('every default image appears in at least one example', async () => {
  const { ts, yaml } = exampleEntries();
  const seen = new Set<string>();
  for (const name of [...ts, ...yaml]) strings((await synthesizeExample(name)).objects, seen);
  const missing = DEFAULT_IMAGES.map((d) => `${d.repository}:${d.tag} (${d.provider} ${d.engine})`)
    .filter((row) => !seen.has(row.replace(/ \(.*$/, '')));
  expect(missing).toEqual([]);
});
