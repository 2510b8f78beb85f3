import { compactCrd, crdIncompatibility, describeIncompatibility } from '../../src/controller-contract/crd-compatibility';
import { decodeUpstreamFields, encodeUpstreamFields, UpstreamFields } from '../../src/controller-contract/upstream-fields';
import { rendered } from '../controller/status/support';
import { HTTP_ROUTE_CRD, INFERENCE_POOL_CRD, upstreamCrd, withoutField, withVersionNotServed } from '../controller/status/upstream-crd-fixtures';

const ROUTED = { model: { id: 'Qwen/Qwen3-0.6B', servedName: 'qwen3' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } };

/** What a routed vLLM record expects of the cluster, by kind. */
function expected(kind: string): UpstreamFields {
  const { objects } = rendered(ROUTED);
  const decoded = decodeUpstreamFields(encodeUpstreamFields(objects));
  const entry = decoded.error === undefined ? decoded.entries.find((e) => e.kind === kind) : undefined;
  if (!entry) throw new Error(`no ${kind} among the routed objects`);
  return entry;
}

/** A CRD with one version `v1` of this schema. */
function crdWith(schema: Record<string, unknown>, served = true): any {
  return { spec: { group: 'example.com', names: { kind: 'Thing', plural: 'things' }, versions: [{ name: 'v1', served, storage: true, schema: { openAPIV3Schema: schema } }] } };
}
const thing = (fields: any): UpstreamFields => ({ apiVersion: 'example.com/v1', kind: 'Thing', fields });

describe('crdIncompatibility', () => {
  test('the upstream HTTPRoute and InferencePool CRDs take every field the routed objects set', () => {
    expect(crdIncompatibility(upstreamCrd(HTTP_ROUTE_CRD), 'httproutes.gateway.networking.k8s.io', expected('HTTPRoute'))).toBeUndefined();
    expect(crdIncompatibility(upstreamCrd(INFERENCE_POOL_CRD), 'inferencepools.inference.networking.k8s.io', expected('InferencePool'))).toBeUndefined();
  });

  test('a CRD without a field the objects set (an older Gateway API: no rules[].timeouts): MissingFields naming its path', () => {
    const older = withoutField(upstreamCrd(HTTP_ROUTE_CRD), 'v1', 'spec.rules[].timeouts');
    const found = crdIncompatibility(older, 'httproutes.gateway.networking.k8s.io', expected('HTTPRoute'));
    expect(found).toEqual({
      reason: 'MissingFields',
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      crdName: 'httproutes.gateway.networking.k8s.io',
      fieldPaths: ['spec.rules[].timeouts'],
    });
    expect(describeIncompatibility(found!)).toBe('HTTPRoute gateway.networking.k8s.io/v1: the installed CustomResourceDefinition httproutes.gateway.networking.k8s.io '
      + 'has no field spec.rules[].timeouts, which the rendered object sets (the API server drops unknown fields)');
  });

  test('a CRD that does not serve the apiVersion: NotServed, with the versions it serves', () => {
    const notServed = withVersionNotServed(upstreamCrd(HTTP_ROUTE_CRD), 'v1');
    const found = crdIncompatibility(notServed, 'httproutes.gateway.networking.k8s.io', expected('HTTPRoute'));
    expect(found).toMatchObject({ reason: 'NotServed', apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' });
    expect(found).toHaveProperty('served', notServed.spec.versions.filter((v: any) => v.served).map((v: any) => v.name));
    expect(describeIncompatibility(found!)).toMatch(/^HTTPRoute gateway.networking.k8s.io\/v1: the installed CustomResourceDefinition httproutes.gateway.networking.k8s.io does not serve gateway.networking.k8s.io\/v1 \(it serves gateway.networking.k8s.io\/v1beta1\)$/);
    const none = crdWith({ type: 'object' }, false);
    expect(describeIncompatibility(crdIncompatibility(none, 'things.example.com', thing({ spec: 1 }))!)).toContain('(it serves no version)');
    expect(crdIncompatibility(crdWith({ type: 'object' }), 'things.example.com', { ...thing({}), apiVersion: 'example.com/v2' })).toMatchObject({ reason: 'NotServed', served: ['v1'] });
  });

  test('pruning rules: properties, maps (additionalProperties), x-kubernetes-preserve-unknown-fields, embedded resources, list items', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            byName: { type: 'object', additionalProperties: { type: 'object', properties: { size: { type: 'integer' } } } },
            free: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
            template: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'properties': { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
            items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
          },
        },
      },
    };
    const fine = { spec: { labels: { 'a.b/c': 1 }, byName: { x: { size: 1 } }, free: { any: { thing: 1 } }, template: { apiVersion: 1, kind: 1, metadata: { name: 1 }, spec: { a: 1 } }, items: [{ name: 1 }] } };
    expect(crdIncompatibility(crdWith(schema), 'things.example.com', thing(fine))).toBeUndefined();
    const wrong = { spec: { byName: { 'x.y': { colour: 1 } }, template: { spec: { b: 1 } }, items: [{ name: 1, port: 1 }], extra: 1 } };
    expect(crdIncompatibility(crdWith(schema), 'things.example.com', thing(wrong))).toMatchObject({
      reason: 'MissingFields',
      fieldPaths: ['spec.byName["x.y"].colour', 'spec.template.spec.b', 'spec.items[].port', 'spec.extra'],
    });
    // An object schema with neither properties nor a map nor preserve-unknown-fields keeps nothing.
    expect(crdIncompatibility(crdWith({ type: 'object', properties: { spec: { type: 'object' } } }), 'things.example.com', thing({ spec: { x: 1 } })))
      .toMatchObject({ fieldPaths: ['spec.x'] });
  });

  test('a message lists at most 8 paths, then how many more', () => {
    const fields = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, 1]));
    const found = crdIncompatibility(crdWith({ type: 'object', properties: { spec: { type: 'object', properties: {} } } }), 'things.example.com', thing({ spec: fields }))!;
    expect(describeIncompatibility(found)).toContain('has no fields spec.f0, spec.f1, spec.f2, spec.f3, spec.f4, spec.f5, spec.f6, spec.f7 and 3 more,');
  });
});

describe('compactCrd', () => {
  test('keeps what decides pruning: the same verdicts as the whole CRD, in a fraction of its size', () => {
    const full = upstreamCrd(HTTP_ROUTE_CRD);
    const compact = compactCrd(full);
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(full).length / 4);
    expect(compact.metadata).toEqual(full.metadata);
    const fields = expected('HTTPRoute');
    expect(crdIncompatibility(compact, 'n', fields)).toBeUndefined();
    const older = withoutField(full, 'v1', 'spec.rules[].timeouts');
    expect(crdIncompatibility(compactCrd(older), 'n', fields)).toEqual(crdIncompatibility(older, 'n', fields));
    expect(crdIncompatibility(compactCrd(withVersionNotServed(full, 'v1')), 'n', fields)).toMatchObject({ reason: 'NotServed' });
  });
});
