import * as fs from 'fs';
import * as path from 'path';
import { EMITTED_KINDS, problems } from './fixtures';
import { useSyntheticUpstream } from './synthetic-upstream';
import {
  findUpstreamSchema, listUpstreamSchemas, scanDefinitionHeader, schemaLoadStats, upstreamDir, upstreamValidator,
} from '../../src/schema-validation/upstream-schemas';

// --- The registry ------------------------------------------------------------------------------------

describe('upstream schema registry', () => {
  test('resolves ../shared/upstream from the repository', () => {
    expect(fs.existsSync(path.join(upstreamDir(), 'SOURCES.md'))).toBe(true);
  });

  test('compiles each validator once', () => {
    const first = upstreamValidator('apps/v1', 'Deployment');
    const compiled = schemaLoadStats().compiled;
    expect(upstreamValidator('apps/v1', 'Deployment')).toBe(first);
    expect(schemaLoadStats().compiled).toBe(compiled);
  });

  test('every served version of every upstream schema compiles', () => {
    const all = listUpstreamSchemas();
    const kinds = all.map((e) => `${e.apiVersion} ${e.kind}`);
    for (const expected of [
      'apps/v1 Deployment', 'v1 Service', 'batch/v1 Job', 'resource.k8s.io/v1 ResourceClaimTemplate',
      'airunway.ai/v1alpha1 ModelDeployment', 'nvidia.com/v1alpha1 DynamoGraphDeployment', 'nvidia.com/v1beta1 DynamoGraphDeployment',
      'ray.io/v1 RayService', 'kaito.sh/v1beta1 Workspace', 'inference.networking.k8s.io/v1 InferencePool',
      'gateway.networking.k8s.io/v1 HTTPRoute', 'gateway.networking.k8s.io/v1beta1 ReferenceGrant',
      'leaderworkerset.x-k8s.io/v1 LeaderWorkerSet', 'modelplane.ai/v1alpha1 ModelDeployment', 'ai.flexinfer/v1alpha2 Model',
    ]) {
      expect(kinds).toContain(expected);
    }
    for (const e of all.filter((x) => x.source !== 'kubernetes')) {
      expect(upstreamValidator(e.apiVersion, e.kind)).toBeInstanceOf(Function);
    }
    // A pattern JavaScript cannot express is skipped with its reason, never silently; none of
    // the kinds we emit loses one.
    const dropped = schemaLoadStats().droppedPatterns;
    for (const d of dropped) {
      expect(d.reason).toMatch(/\S/);
    }
    const emittedFiles = new Set(all.filter((e) => EMITTED_KINDS.includes(`${e.apiVersion} ${e.kind}`) || e.source === 'kubernetes').map((e) => e.file));
    expect(dropped.filter((d) => emittedFiles.has(d.file))).toEqual([]);
  });

  test("Go-only regular-expression syntax is translated, not dropped: PrometheusRule's (?i) pattern", () => {
    const rule = (strategy: string) => ({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'vllm' },
      spec: { groups: [{ name: 'vllm', partial_response_strategy: strategy, rules: [{ record: 'x', expr: 'up' }] }] },
    });
    expect(problems(rule('ABORT'))).toEqual([]);
    expect(problems(rule('warn'))).toEqual([]);
    expect(problems(rule('drop'))).toEqual(['spec.groups[0].partial_response_strategy: must match pattern "^(?i:(abort|warn)?$)", got string "drop"']);
    expect(schemaLoadStats().droppedPatterns.map((d) => d.pattern)).not.toContain('^(?i)(abort|warn)?$');
  });

  test('scans CRD headers without parsing, and gives up on anything unusual', () => {
    const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: a.example\n  names:\n    kind: Thing\n    plural: things\n  versions: []\n';
    expect(scanDefinitionHeader(crd)).toEqual({ group: 'a.example', kind: 'Thing' });
    expect(scanDefinitionHeader(crd.replace('  names:', '# a comment at column 0\n  names:'))).toEqual({ group: 'a.example', kind: 'Thing' });
    expect(scanDefinitionHeader(`${crd}---\n${crd}`)).toBeUndefined();
    expect(scanDefinitionHeader('{"kind": "CustomResourceDefinition"}')).toBeUndefined();
  });

  test('served deprecated versions are known and flagged', () => {
    expect(findUpstreamSchema('nvidia.com/v1alpha1', 'DynamoGraphDeployment')).toMatchObject({ deprecated: true, source: 'crd' });
    expect(findUpstreamSchema('nvidia.com/v1beta1', 'DynamoGraphDeployment')).toMatchObject({ deprecated: false });
    expect(findUpstreamSchema('apps/v1', 'Deployment')).toMatchObject({ source: 'kubernetes', file: 'kubernetes/apis__apps__v1_openapi.json' });
    expect(findUpstreamSchema('modelplane.ai/v1alpha1', 'ModelDeployment')).toMatchObject({ source: 'xrd' });
  });
});

describe('upstream schema registry (synthetic CRDs)', () => {
  const upstream = useSyntheticUpstream();

  test('the upstream directory can be overridden', () => {
    expect(upstreamDir()).toBe(upstream.dir);
    expect(findUpstreamSchema('apps/v1', 'Deployment')).toBeDefined();
    expect(findUpstreamSchema('nvidia.com/v1beta1', 'DynamoGraphDeployment')).toBeUndefined();
  });

  test('unserved versions are unknown; the second definition of a multi-document file is found', () => {
    expect(problems({ apiVersion: 'test.example/v0', kind: 'Widget', metadata: { name: 'w' } })).toEqual(['(root): no upstream schema for test.example/v0 Widget']);
    expect(problems({ apiVersion: 'test.example/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { x: 1 } })).toEqual([]);
  });
});
