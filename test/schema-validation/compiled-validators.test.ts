import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { clone, deployment, dynamoV1alpha1, dynamoV1beta1, problems, service } from './fixtures';
import { restore } from './synthetic-upstream';
import { SCHEMA_CACHE_ENV } from '../../src/schema-validation/conversion-cache';
import { resetUpstreamSchemas, schemaLoadStats } from '../../src/schema-validation/upstream-schemas';

/**
 * Objects whose problems exercise every kind of check a compiled validator makes: a built-in
 * kind (Kubernetes OpenAPI) and CRDs, unknown fields, enums, types, bounds, list-map uniqueness.
 */
function samples(): any[] {
  const badDeployment: any = clone(deployment());
  badDeployment.spec.template.spec.containers[0].imagePullPolicy = 'Sometimes';
  badDeployment.spec.surprise = true;
  const badService: any = clone(service());
  badService.spec.ports[0].port = 'eighty';
  const badGraph: any = clone(dynamoV1alpha1());
  const [first] = Object.values<any>(badGraph.spec.services);
  first.replicas = -1;
  first.unknownField = 'x';
  const duplicateComponent: any = clone(dynamoV1beta1());
  duplicateComponent.spec.components.push({ name: 'decode' });
  return [deployment(), badDeployment, service(), badService, dynamoV1alpha1(), badGraph, dynamoV1beta1(), duplicateComponent];
}

describe('validators stored as standalone code and loaded by a later process', () => {
  let dir: string;
  let saved: string | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-validators-'));
    saved = process.env[SCHEMA_CACHE_ENV];
    process.env[SCHEMA_CACHE_ENV] = dir;
    resetUpstreamSchemas();
  });
  afterEach(() => {
    restore(SCHEMA_CACHE_ENV, saved);
    resetUpstreamSchemas();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a fresh registry loads them instead of compiling, with the same verdicts', () => {
    const compiled = samples().map(problems);
    expect(schemaLoadStats().validatorCacheHits).toBe(0);
    // Every sample but the valid ones has problems, among them the list-map duplicate.
    expect(compiled.filter((p) => p.length > 0)).toHaveLength(4);
    expect(compiled.flat()).toEqual(expect.arrayContaining([
      expect.stringMatching(/^spec\.components\[2\]: duplicate entry for list-map key \{"name":"decode"\}$/),
    ]));
    expect(fs.readdirSync(path.join(dir, 'validators')).filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(4);

    resetUpstreamSchemas(); // as a later process would start
    const loaded = samples().map(problems);
    expect(schemaLoadStats().validatorCacheHits).toBe(schemaLoadStats().compiled);
    expect(schemaLoadStats().validatorCacheHits).toBeGreaterThanOrEqual(4);
    expect(loaded).toEqual(compiled);
  });

  test('code in a directory others can write is never run: it is compiled again', () => {
    const compiled = samples().map(problems);
    const validators = path.join(dir, 'validators');
    // Plant code that would report a problem for anything, and open the directory to everyone.
    for (const f of fs.readdirSync(validators)) {
      fs.writeFileSync(path.join(validators, f), 'module.exports = () => { throw new Error("planted code ran"); };');
    }
    fs.chmodSync(validators, 0o777);
    resetUpstreamSchemas();
    expect(samples().map(problems)).toEqual(compiled);
    expect(schemaLoadStats().validatorCacheHits).toBe(0);
  });

  test('off disables the store', () => {
    process.env[SCHEMA_CACHE_ENV] = 'off';
    resetUpstreamSchemas();
    samples().map(problems);
    expect(fs.existsSync(path.join(dir, 'validators'))).toBe(false);
    expect(schemaLoadStats().validatorCacheHits).toBe(0);
  });
});
