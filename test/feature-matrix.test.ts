/**
 * The README's "Serving at scale, per target" table says which target carries which feature; the
 * providers answer the same question in code (`supportsFeature`, `supportsDeviceClaims` /
 * `schedulesDevicesItself`). This test reads the table and asks each shipped provider, for an
 * aggregated vLLM deployment on one GPU, so the documentation cannot drift from the code.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DeploymentFeature, InferenceProvider } from '../src';
import { admittedDeployment } from './support/resolved-deployment';
import { toResolvedDeployment } from '../src/api/resolved-model-deployment';
import { shippedProviders } from '../src/pipeline/shipped-providers';

const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

/** The table's rows, by target, as cells in column order. */
function matrix(): Map<string, string[]> {
  const start = readme.indexOf('Serving at scale, per target');
  expect(start).toBeGreaterThan(0);
  const lines = readme.slice(start).split('\n');
  const header = lines.findIndex((l) => l.startsWith('| Target |'));
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    rows.set(cells[0].replace(/`/g, ''), cells.slice(1));
  }
  return rows;
}

const COLUMNS: Array<[string, (p: InferenceProvider, d: ReturnType<typeof toResolvedDeployment>) => boolean]> = [
  ['autoscaling', (p, d) => p.supportsFeature(DeploymentFeature.AUTOSCALING, d)],
  ['scale to zero', (p, d) => p.supportsFeature(DeploymentFeature.SCALE_TO_ZERO, d)],
  ['multi-node', (p, d) => p.supportsFeature(DeploymentFeature.MULTI_NODE, d)],
  ['LoRA', (p, d) => p.supportsFeature(DeploymentFeature.LORA_ADAPTERS, d)],
  ['DRA', (p, d) => p.supportsDeviceClaims(d) || p.schedulesDevicesItself(d)],
];

test('the table lists every shipped provider once', () => {
  expect([...matrix().keys()].sort()).toEqual(shippedProviders().map((p) => p.name).sort());
});

test.each(shippedProviders().map((p) => [p.name, p] as const))('%s: each cell says "no" exactly when the provider lacks the feature', (name, provider) => {
  const cells = matrix().get(name)!;
  const deployment = toResolvedDeployment(admittedDeployment(name));
  COLUMNS.forEach(([column, supports], i) => {
    const documented = !/^no\b/.test(cells[i]);
    expect({ column, documented }).toEqual({ column, documented: supports(provider, deployment) });
  });
});
