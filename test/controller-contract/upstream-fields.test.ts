import {
  ANNOTATION_UPSTREAM_FIELDS,
  decodeUpstreamFields,
  encodeUpstreamFields,
  isCustomResource,
  mergeShapes,
  shapeOf,
} from '../../src/controller-contract/upstream-fields';
import { rendered } from '../controller/status/support';

describe('shapeOf / mergeShapes', () => {
  test('values become 1, lists one element holding every element\'s fields, empty lists stay empty', () => {
    expect(shapeOf({ a: 'x', b: { c: 3, d: true }, e: [{ f: 1 }, { g: 'y' }], h: [], i: ['s'], j: {} }))
      .toEqual({ a: 1, b: { c: 1, d: 1 }, e: [{ f: 1, g: 1 }], h: [], i: [1], j: {} });
  });

  test('merging keeps every field of both; an object says more than a value', () => {
    expect(mergeShapes({ a: 1, b: { c: 1 } }, { b: { d: [1] }, e: 1 })).toEqual({ a: 1, b: { c: 1, d: [1] }, e: 1 });
    expect(mergeShapes(1, { x: 1 })).toEqual({ x: 1 });
    expect(mergeShapes({ x: 1 }, 1)).toEqual({ x: 1 });
    expect(mergeShapes([], [{ x: 1 }])).toEqual([{ x: 1 }]);
  });
});

describe('encodeUpstreamFields', () => {
  test('one entry per apiVersion+kind of custom resource; built-in kinds and the root apiVersion/kind/metadata/status left out', () => {
    const value = encodeUpstreamFields([
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' }, spec: { replicas: 1 } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { ports: [] } },
      { apiVersion: 'ray.io/v1', kind: 'RayService', metadata: { name: 'a', labels: { x: 'y' } }, spec: { serveConfigV2: 'x' }, status: { ok: 1 } },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'r1' }, spec: { parentRefs: [{ name: 'gw' }] } },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'r2' }, spec: { rules: [{ timeouts: { request: '60s' } }] } },
    ]);
    expect(JSON.parse(value!)).toEqual([
      { apiVersion: 'ray.io/v1', kind: 'RayService', fields: { spec: { serveConfigV2: 1 } } },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', fields: { spec: { parentRefs: [{ name: 1 }], rules: [{ timeouts: { request: 1 } }] } } },
    ]);
    expect(encodeUpstreamFields([{ apiVersion: 'apps/v1', kind: 'Deployment', spec: {} }])).toBeUndefined();
  });

  test('a *.k8s.io group is a CRD\'s unless Kubernetes serves it itself', () => {
    expect(isCustomResource('gateway.networking.k8s.io/v1')).toBe(true);
    expect(isCustomResource('inference.networking.x-k8s.io/v1alpha2')).toBe(true);
    expect(isCustomResource('networking.k8s.io/v1')).toBe(false);
    expect(isCustomResource('resource.k8s.io/v1')).toBe(false);
    expect(isCustomResource('v1')).toBe(false);
  });

  test('the synth writes it on a record with custom resources, from the final objects, and not on one without', () => {
    const routed = rendered({ model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } });
    const decoded = decodeUpstreamFields(routed.record.metadata.annotations[ANNOTATION_UPSTREAM_FIELDS]);
    expect(decoded.error).toBeUndefined();
    const customResources = routed.objects.filter((o) => isCustomResource(o.apiVersion));
    expect(customResources.length).toBeGreaterThan(0);
    // Exactly what the objects synthesized beside the record set.
    expect(JSON.parse(routed.record.metadata.annotations[ANNOTATION_UPSTREAM_FIELDS])).toEqual(JSON.parse(encodeUpstreamFields(routed.objects)!));
    const unrouted = rendered({ model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } }, { gateway: false });
    expect(unrouted.record.metadata.annotations).not.toHaveProperty(ANNOTATION_UPSTREAM_FIELDS);
  });
});

describe('decodeUpstreamFields', () => {
  test('absent: nothing expected; a round trip gives the entries back', () => {
    expect(decodeUpstreamFields(undefined)).toEqual({ entries: [] });
    const value = encodeUpstreamFields([{ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', resource: { count: 1 }, inference: { preset: { name: 'x' } } }]);
    expect(decodeUpstreamFields(value)).toEqual({ entries: [{ apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', fields: { resource: { count: 1 }, inference: { preset: { name: 1 } } } }] });
  });

  test.each([
    [7, 'is not a string'],
    ['{', 'is not JSON'],
    ['{}', 'is not a JSON array'],
    ['[{"apiVersion":"ray.io/v1","fields":{}}]', '[0]: expected {apiVersion, kind, fields}'],
    ['[{"apiVersion":"ray.io/v1","kind":"RayService","fields":{"spec":2}}]', '[0]: expected'],
    ['[{"apiVersion":"ray.io/v1","kind":"RayService","fields":{"spec":[1,1]}}]', '[0]: expected'],
  ])('%j is an error naming the annotation: %s', (value, message) => {
    const decoded = decodeUpstreamFields(value);
    expect(decoded.error).toContain(ANNOTATION_UPSTREAM_FIELDS);
    expect(decoded.error).toContain(message);
  });
});
