import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { dynamoV1alpha1, dynamoV1beta1, EMITTED_KINDS, gateway, httpRoute, inferencePool, problems } from './fixtures';
import { ruled, useSyntheticUpstream, widget } from './synthetic-upstream';
import { celRuleCoverage, celRuleStats } from '../../src/schema-validation/cel-validation';
import { listUpstreamSchemas, upstreamDir } from '../../src/schema-validation/upstream-schemas';

// --- CEL validation rules of real CRDs -------------------------------------------------------------

describe('CEL validation rules (x-kubernetes-validations) of upstream CRDs', () => {
  test('valid HTTPRoute, Gateway and InferencePool pass, and their rules were evaluated', () => {
    const before = celRuleStats().evaluations;
    for (const obj of [httpRoute(), gateway(), inferencePool()]) {
      expect(problems(obj)).toEqual([]);
    }
    expect(celRuleStats().evaluations).toBeGreaterThan(before + 20);
  });

  test('HTTPRoute: Exact and PathPrefix path values must be absolute, clean paths', () => {
    const obj: any = httpRoute();
    obj.spec.rules[0].matches[0].path.value = 'v1//chat';
    expect(problems(obj)).toEqual([
      "spec.rules[0].matches[0].path: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
      "spec.rules[0].matches[0].path: must not contain '//' when type one of ['Exact', 'PathPrefix']",
    ]);
    obj.spec.rules[0].matches[0].path.value = '/v1/chat#x';
    expect(problems(obj)).toEqual([
      "spec.rules[0].matches[0].path: must not contain '#' when type one of ['Exact', 'PathPrefix']",
      "spec.rules[0].matches[0].path: must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
    ]);
    // The rules apply to Exact and PathPrefix only.
    obj.spec.rules[0].matches[0].path = { type: 'RegularExpression', value: 'v1//chat' };
    expect(problems(obj)).toEqual([]);
  });

  test('HTTPRoute: the backend request timeout may not exceed the request timeout (compared as durations)', () => {
    const obj: any = httpRoute();
    obj.spec.rules[0].timeouts = { request: '10s', backendRequest: '1m' };
    expect(problems(obj)).toEqual(['spec.rules[0].timeouts: backendRequest timeout cannot be longer than request timeout']);
    // As strings '30s' > '1m'; as durations 30s < 1m.
    obj.spec.rules[0].timeouts = { request: '1m', backendRequest: '30s' };
    expect(problems(obj)).toEqual([]);
    // A zero request timeout disables it.
    obj.spec.rules[0].timeouts = { request: '0s', backendRequest: '1h' };
    expect(problems(obj)).toEqual([]);
  });

  test('HTTPRoute: defaults are applied before the rules run (no matches means one PathPrefix "/" match)', () => {
    const obj: any = httpRoute();
    delete obj.spec.rules[0].matches;
    obj.spec.rules[0].filters = [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } }];
    expect(problems(obj)).toEqual([]);
    obj.spec.rules[0].matches = [{ path: { type: 'Exact', value: '/v1' } }];
    expect(problems(obj)).toEqual([
      'spec.rules[0]: When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified',
    ]);
  });

  test('HTTPRoute: reserved words are escaped as Kubernetes does (namespace is __namespace__)', () => {
    const obj: any = httpRoute();
    obj.spec.parentRefs = [{ name: 'gw', namespace: 'a' }, { name: 'gw', namespace: 'b', sectionName: 'http' }];
    expect(problems(obj)).toEqual([]);
    obj.spec.parentRefs[1].namespace = 'a';
    expect(problems(obj)).toEqual(['spec.parentRefs: sectionName must be specified when parentRefs includes 2 or more references to the same parent']);
  });

  test('Gateway: listener names are unique and HTTP listeners take no TLS', () => {
    const obj: any = gateway();
    obj.spec.listeners[0].tls = { mode: 'Terminate', certificateRefs: [{ name: 'cert' }] };
    obj.spec.listeners.push({ name: 'http', port: 8080, protocol: 'HTTP' });
    expect(problems(obj)).toEqual([
      "spec.listeners: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']",
      'spec.listeners: Listener name must be unique within the Gateway',
      'spec.listeners[1]: duplicate entry for list-map key {"name":"http"}',
    ]);
  });

  test('InferencePool: the endpoint picker needs a port when its kind is Service, the default; target ports are unique', () => {
    const obj: any = inferencePool();
    delete obj.spec.endpointPickerRef.port;
    obj.spec.targetPorts = [{ number: 8000 }, { number: 8000 }];
    expect(problems(obj)).toEqual([
      "spec.endpointPickerRef: port is required when kind is 'Service' or unspecified (defaults to 'Service')",
      'spec.targetPorts: port number must be unique',
    ]);
  });

  test('transition rules (oldSelf) are skipped at create; optionalOldSelf rules run with no old object', () => {
    expect(problems({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: 'istio' }, spec: { controllerName: 'istio.io/gateway-controller' } })).toEqual([]);
    expect(celRuleCoverage('gateway.networking.k8s.io/v1', 'GatewayClass')?.rules).toEqual([{
      apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', path: 'spec.controllerName', rule: 'self == oldSelf', status: 'transition',
    }]);
    // Dynamo: `oldSelf.hasValue() || !has(self.restart)` with optionalOldSelf rejects a restart on create.
    const obj: any = dynamoV1beta1();
    expect(problems(obj)).toEqual([]);
    obj.spec.restart = { id: 'r1' };
    expect(problems(obj)).toEqual(['spec: spec.restart must be unset on create; set spec.restart.id after creation to request a restart']);
  });

  test("rules calling Kubernetes' quantity library are evaluated as the API server evaluates them", () => {
    // Dynamo v1alpha1: (has(self.disabled) && self.disabled) || (has(self.size) && quantity(self.size).isGreaterThan(quantity('0'))).
    const obj: any = dynamoV1alpha1();
    obj.spec.services.VllmWorker.sharedMemory = { disabled: false, size: '0' };
    expect(problems(obj)).toEqual(['spec.services.VllmWorker.sharedMemory: size is required when disabled is false']);
    obj.spec.services.VllmWorker.sharedMemory = { disabled: false, size: '8Gi' };
    expect(problems(obj)).toEqual([]);
    obj.spec.services.VllmWorker.sharedMemory = { disabled: true };
    expect(problems(obj)).toEqual([]);
  });

  test('each rule is compiled once', () => {
    problems(httpRoute());
    const compiled = celRuleStats().compiled;
    problems(httpRoute());
    problems(gateway());
    expect(celRuleStats().compiled).toBe(compiled);
  });

  test('coverage, per CRD version: every rule is found, and is evaluated, a transition rule, or unsupported for a stated reason', () => {
    // Counted per file and kind, so a new upstream file changes no expectation here: its rules
    // are held to the same invariants, and only the kinds we emit have pinned figures.
    const customKinds = listUpstreamSchemas().filter((x) => x.source !== 'kubernetes');
    const declared = declaredRuleCounts(customKinds.map((e) => e.file));
    const pinned: Record<string, unknown> = {};
    for (const e of customKinds) {
      const key = `${e.apiVersion} ${e.kind}`;
      const c = celRuleCoverage(e.apiVersion, e.kind);
      // The rule extraction finds every x-kubernetes-validations entry of the version's schema.
      expect([key, c?.coverage.rules ?? 0]).toEqual([key, declared.get(key) ?? 0]);
      if (!c) {
        continue;
      }
      const { rules, evaluated, transition, unsupported } = c.coverage;
      expect([key, evaluated + transition + unsupported]).toEqual([key, rules]);
      for (const r of c.rules.filter((x) => x.status === 'unsupported')) {
        expect(r.reason).toMatch(/\S/);
      }
      if (EMITTED_KINDS.includes(key)) {
        pinned[key] = { rules, evaluated, transition, unsupported: c.rules.filter((r) => r.status === 'unsupported').map((r) => `${r.path}: ${r.reason}`) };
      }
    }
    expect(pinned).toEqual({
      'gateway.networking.k8s.io/v1 Gateway': { rules: 16, evaluated: 16, transition: 0, unsupported: [] },
      'gateway.networking.k8s.io/v1 HTTPRoute': { rules: 89, evaluated: 89, transition: 0, unsupported: [] },
      'inference.networking.k8s.io/v1 InferencePool': { rules: 2, evaluated: 2, transition: 0, unsupported: [] },
      'nvidia.com/v1alpha1 DynamoGraphDeployment': { rules: 13, evaluated: 12, transition: 1, unsupported: [] },
      'nvidia.com/v1beta1 DynamoGraphDeployment': { rules: 18, evaluated: 17, transition: 1, unsupported: [] },
      'ray.io/v1 RayService': { rules: 5, evaluated: 2, transition: 3, unsupported: [] },
    });
    // No evaluation of an upstream rule in this file ended undecided.
    expect(celRuleStats().undecided.filter((u) => !u.apiVersion.startsWith('test.example/'))).toEqual([]);
  });
});

/**
 * How many `x-kubernetes-validations` entries each served CRD/XRD version declares, counted on the
 * raw files independently of the validator's extraction.
 */
function declaredRuleCounts(files: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const countRules = (node: unknown): number => {
    if (Array.isArray(node)) {
      return node.reduce((n: number, x) => n + countRules(x), 0);
    }
    if (!node || typeof node !== 'object') {
      return 0;
    }
    return Object.entries(node).reduce((n, [k, v]) => n + (k === 'x-kubernetes-validations' && Array.isArray(v) ? v.length : countRules(v)), 0);
  };
  for (const file of new Set(files)) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(upstreamDir(), file), 'utf8'))) {
      const crd: any = doc.toJS({ maxAliasCount: -1 });
      const group = crd?.spec?.group;
      for (const v of crd?.spec?.versions ?? []) {
        if (v.served) {
          counts.set(`${group ? `${group}/` : ''}${v.name} ${crd.spec.names.kind}`, countRules(v.schema?.openAPIV3Schema));
        }
      }
    }
  }
  return counts;
}

// --- The jest helper -------------------------------------------------------------------------------
// --- CEL semantics, on CRDs written for this test ---------------------------------------------------

describe('CEL validation rules (synthetic CRDs)', () => {
  useSyntheticUpstream();

  test('CEL: a rule without message reports the rule; a rule sees only a present value', () => {
    expect(problems(widget({ size: 1, checked: 'checked' }))).toEqual([]);
    expect(problems(widget({ size: 1, checked: 'x' }))).toEqual(["spec.checked: failed rule: self == 'checked'"]);
    expect(problems(ruled({}, { name: 'r', labels: { app: 'x' } }))).toEqual([]);
  });

  test('CEL: messageExpression, fieldPath and reason; defaults are applied first', () => {
    expect(problems(ruled({ replicas: 4 }))).toEqual([]);
    expect(problems(ruled({ replicas: 5 }))).toEqual(['spec.replicas: Forbidden: replicas 5 exceeds 4']);
    expect(problems(ruled({ replicas: 5, maxReplicas: 8 }))).toEqual([]);
  });

  test('CEL: integers are ints, numbers doubles (also when integral), map keys unescaped, reserved names escaped', () => {
    expect(problems(ruled({ replicas: 2, ratio: 1, limits: { 'nvidia.com/gpu': 1 }, namespace: 'team-a' }))).toEqual([]);
    expect(problems(ruled({ limits: { 'nvidia.com/gpu': 2 }, namespace: 'default' }))).toEqual([
      'spec: namespace must not be default',
      'spec: at most one GPU',
    ]);
  });

  test('CEL: an explicit null of a nullable property is not defaulted and reads as absent', () => {
    expect(problems(ruled({ owner: 'me' }))).toEqual([]);
    expect(problems(ruled({ owner: null }))).toEqual(['spec: owner is null']);
  });

  test('CEL: a run-time error (a missing key without has()) rejects the object, as the API server does', () => {
    expect(problems(ruled({ target: { port: 8080 } }))).toEqual([]);
    expect(problems(ruled({ target: {} }))).toEqual(['spec.target: field not found: port evaluating rule: target port must be positive']);
  });

  test('CEL: list items are checked one by one; duration-format strings are durations', () => {
    expect(problems(ruled({ members: [{ name: 'a' }, { name: '' }], window: '500ms' }))).toEqual([
      'spec.members[1]: a member needs a name',
      'spec.window: window must be at least 1s',
    ]);
    expect(problems(ruled({ window: '1m30s' }))).toEqual([]);
  });

  test('CEL: a value @bufbuild/cel cannot represent leaves its rules undecided, not failed', () => {
    expect(problems(ruled({ window: '1 day' }))).toEqual([]);
    expect(celRuleStats().undecided).toContainEqual(expect.objectContaining({ kind: 'Ruled', path: 'spec.window', count: 1 }));
  });

  test('CEL: transition rules are skipped; unsupported rules never fail and are listed with the reason', () => {
    expect(problems(ruled({ endpoint: 'not a URL', mode: 'fast' }))).toEqual([]);
    expect(problems(ruled({ mode: 'locked' }))).toEqual(['spec.mode: mode may be locked only after creation']);
    const coverage = celRuleCoverage('test.example/v1', 'Ruled');
    expect(coverage?.coverage).toEqual({ apiVersion: 'test.example/v1', kind: 'Ruled', rules: 15, evaluated: 11, transition: 1, unsupported: 3 });
    expect(coverage?.rules.filter((r) => r.status !== 'evaluated').map((r) => `${r.path} ${r.status} ${r.reason ?? ''}`)).toEqual([
      'spec.endpoint unsupported isURL()',
      expect.stringMatching(/^spec\.endpoint unsupported @bufbuild\/cel cannot parse it/),
      'spec.mode transition ',
      'spec.mode unsupported .value(), oldSelf as an optional value',
    ]);
  });
});
