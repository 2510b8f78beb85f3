/**
 * The synth-time check of the final JSON of every emitted object (src/admission/emitted-objects.ts):
 * what the API server would refuse in it, overrides merged, fails `App.synth()` with field errors
 * at the field to fix. Each hostile case synthesized (exit 0, invalid objects) before the check.
 */
import { App, Chart } from 'cdk8s';
import { parse } from 'yaml';
import { ModelDeployment } from '../../src';
import { parsePath } from '../../src/core/field-path';

function deployment(spec: string): { app: App; md: ModelDeployment } {
  const app = new App();
  const chart = new Chart(app, 'c', { disableResourceNameHashes: true });
  const md = ModelDeployment.fromManifest(chart, 'md', {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'phi', namespace: 'a' },
    spec: parse(spec),
  });
  return { app, md };
}

/** The deployment's validation messages (what `App.synth()` throws with). */
function errors(spec: string): string[] {
  return deployment(spec).md.node.validate();
}

const VLLM = 'model: {id: microsoft/Phi-4-mini-instruct}\nengine: {type: vllm}\n';

describe('provider.overrides: the merged object is checked against its upstream schema', () => {
  test('routerMode at the root of a Direct vLLM Deployment is refused by the provider, once, before anything is merged', () => {
    expect(errors(`${VLLM}provider: {name: vllm, overrides: {routerMode: kv}}`)).toEqual([
      'spec.provider.overrides.routerMode: Forbidden: a Deployment has no root field "routerMode"; vLLM overrides merge into each Deployment, so put fields under "spec"',
    ]);
  });

  test('an unknown field under spec.template, and a wrong type, of a Direct vLLM Deployment', () => {
    const out = errors(`${VLLM}provider: {name: vllm, overrides: {spec: {template: {spec: {bogus: 1, terminationGracePeriodSeconds: "soon"}}}}}`);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^spec\.provider\.overrides\.spec\.template\.spec\.bogus: Invalid value: 1: unknown field/);
    expect(out[1]).toMatch(/^spec\.provider\.overrides\.spec\.template\.spec\.terminationGracePeriodSeconds: Invalid value: "soon": must be integer/);
  });

  test('an int32 field above int32, and Infinity, in the overrides', () => {
    const out = errors(`${VLLM}provider: {name: vllm, overrides: {spec: {minReadySeconds: 99999999999, template: {spec: {activeDeadlineSeconds: .inf}}}}}`);
    expect(out.some((e) => e.startsWith('spec.provider.overrides.spec.minReadySeconds: Invalid value: 99999999999:'))).toBe(true);
    // The merge carries JSON, where Infinity is null (the field dropped): the record keeps the Infinity, and is refused.
    expect(out).toContain('spec.provider.overrides.spec.template.spec.activeDeadlineSeconds: Invalid value: "Infinity": must be a finite number, got Infinity (in the synthesized ModelDeployment "phi" at spec.provider.overrides.spec.template.spec.activeDeadlineSeconds)');
  });

  test.each([
    ['dynamo', 'resources: {gpu: {count: 1}}\n', 'DynamoGraphDeployment'],
    ['llmd', 'resources: {gpu: {count: 1}}\n', 'Deployment'],
    ['kthena', 'resources: {gpu: {count: 1}}\n', 'ModelServing'],
  ])('%s: an unknown field merged into its object', (provider, extra, kind) => {
    const out = errors(`${VLLM}${extra}provider: {name: ${provider}, overrides: {spec: {bogus: 1}}}`);
    expect(out).toEqual([expect.stringMatching(new RegExp(`^spec\\.provider\\.overrides\\.spec\\.bogus: Invalid value: 1: unknown field .*\\(in the synthesized ${kind} "phi[^"]*" at spec\\.bogus\\)$`))]);
  });

  test('valid overrides still synthesize', () => {
    const { app, md } = deployment(`${VLLM}provider: {name: vllm, overrides: {spec: {minReadySeconds: 30, template: {spec: {terminationGracePeriodSeconds: 60}}}}}`);
    expect(md.node.validate()).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });
});

describe('the Go-side rules on every emitted object', () => {
  test('a volumes override that drops the generated shm volume', () => {
    expect(errors(`${VLLM}resources: {gpu: {count: 2}}\nprovider: {name: vllm, overrides: {spec: {template: {spec: {volumes: []}}}}}`)).toEqual([
      'spec.provider.overrides.spec.template.spec.volumes: Invalid value: "<array>": no volume named "shm", which containers[0].volumeMounts[0] mounts (the pod has none): ' +
        'every mounted volume must be a volume of the pod (in the synthesized Deployment "phi" at spec.template.spec.volumes)',
    ]);
  });

  test('an env var name with "=" is reported at spec.env', () => {
    expect(errors(`${VLLM}provider: {name: vllm}\nenv: [{name: "A=B", value: x}]`)).toEqual([
      'spec.env[0].name: Invalid value: "A=B": environment variable name "A=B" is invalid: must consist of printable ASCII characters other than \'=\' ' +
        '(in the synthesized Deployment "phi" at spec.template.spec.containers[0].env[0].name)',
    ]);
  });

  test('a pod label key from spec.podTemplate is reported there', () => {
    const out = errors(`${VLLM}provider: {name: vllm}\npodTemplate: {metadata: {labels: {"a b": c}}}`);
    expect(out.length).toBeGreaterThan(0);
    for (const e of out) expect(e).toMatch(/^spec\.podTemplate\.metadata\.labels\["a b"\]: Invalid value: "c": label key "a b" is invalid/);
  });

  test('nodeSelector values and tolerations from overrides', () => {
    const out = errors(`${VLLM}provider: {name: vllm, overrides: {spec: {template: {spec: {nodeSelector: {zone: "a b"}, tolerations: [{key: k, operator: Exists, value: v}]}}}}}`);
    expect(out).toEqual([
      expect.stringMatching(/^spec\.provider\.overrides\.spec\.template\.spec\.nodeSelector\.zone: Invalid value: "a b": label value "a b" is invalid/),
      expect.stringMatching(/^spec\.provider\.overrides\.spec\.template\.spec\.tolerations\[0\]\.value: Invalid value: "v": must be empty when operator is "Exists"/),
    ]);
  });

  test('a model id of megabytes: the objects would exceed 1.5 MiB; the message stays short', () => {
    const id = `org/${'m'.repeat(2_000_000)}`;
    const out = errors(`model: {id: ${id}}\nengine: {type: vllm}\nprovider: {name: vllm}`);
    expect(out.length).toBeGreaterThan(0);
    for (const e of out) {
      expect(e).toMatch(/^spec\.model\.id: Invalid value: "org\/m+… \(2000004 characters\)": synthesized \w+ "phi" is 1\.9 MiB as JSON, more than the 1\.5 MiB/);
      expect(e.length).toBeLessThan(400);
    }
  });

  test('App.synth() throws with the errors', () => {
    const { app } = deployment(`${VLLM}provider: {name: vllm}\nenv: [{name: "A=B", value: x}]`);
    expect(() => app.synth()).toThrow(/spec\.env\[0\]\.name: Invalid value: "A=B"/);
  });

  test('a valid deployment passes', () => {
    expect(errors(`${VLLM}provider: {name: vllm}\nenv: [{name: "weird name.1", value: x}]\npodTemplate: {metadata: {labels: {team: a}}}`)).toEqual([]);
  });
});

test('parsePath reads the validator\'s paths', () => {
  expect(parsePath('spec.template.spec.containers[0].env[12].name')).toEqual(['spec', 'template', 'spec', 'containers', 0, 'env', 12, 'name']);
  expect(parsePath('metadata.labels["a.b/c d"]')).toEqual(['metadata', 'labels', 'a.b/c d']);
  expect(parsePath('')).toEqual([]);
});
