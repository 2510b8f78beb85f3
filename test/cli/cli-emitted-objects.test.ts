/**
 * What used to synthesize with exit 0 into objects the API server refuses now exits 1, naming the
 * file, the document and the field, with nothing on stdout (src/admission/emitted-objects.ts,
 * the Gateway check in src/cli/build-app.ts, the KubeRay flag check).
 */
import { run, tempFolderPerTest } from '../support/cli-run';

const temp = tempFolderPerTest('cdk8s-inference-cli-emitted-');

const md = (spec: string) => `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: phi, namespace: a}
spec:
  model: {id: microsoft/Phi-4-mini-instruct}
${spec}`;

async function refused(text: string): Promise<string[]> {
  const f = temp.file('in.yaml', text);
  const r = await run('synth', '-f', f);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr[r.stderr.length - 1]).toMatch(/error\(s\); nothing was written\.$/);
  return r.stderr.slice(0, -1).map((l) => l.replace(f, 'in.yaml'));
}

describe('synth refuses output the API server would refuse', () => {
  test('a routed model name longer than a Gateway API header match takes (found by scripts/fuzz-cli.ts)', async () => {
    const f = temp.file('in.yaml', md(`  engine: {type: vllm}\n  provider: {name: vllm}\n  resources: {gpu: {count: 1}}\n  model: {id: microsoft/Phi-4-mini-instruct, servedName: ${'a'.repeat(5000)}}\n`).replace('  model: {id: microsoft/Phi-4-mini-instruct}\n', ''));
    const r = await run('synth', '-f', f, '--gateway', 'gw/gateway');
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: '' });
    expect(r.stderr[0]).toMatch(/\[doc 1\]:\d+:\d+: ModelDeployment a\/phi: spec\.model\.servedName: Invalid value: "a{64}… \(5000 characters\)": the routed model name is matched in the X-Gateway-Model-Name header, whose match value the Gateway API caps at 4096 characters/);
    // At the limit it routes.
    const atLimit = temp.file('ok.yaml', md(`  engine: {type: vllm}\n  provider: {name: vllm}\n  resources: {gpu: {count: 1}}\n  gateway: {modelName: ${'b'.repeat(4096)}}\n`));
    expect((await run('synth', '-f', atLimit, '--gateway', 'gw/gateway')).code).toBe(0);
  });

  test('routerMode merged at the root of a Direct vLLM Deployment', async () => {
    expect(await refused(md('  engine: {type: vllm}\n  provider: {name: vllm, overrides: {routerMode: kv}}\n'))).toEqual([
      expect.stringMatching(/^error: in\.yaml\[doc 1\]:7:\d+: ModelDeployment a\/phi: spec\.provider\.overrides\.routerMode: Forbidden: a Deployment has no root field "routerMode"/),
    ]);
  });

  test('a volumes override that drops the shm volume', async () => {
    const out = await refused(md('  engine: {type: vllm}\n  resources: {gpu: {count: 2}}\n  provider: {name: vllm, overrides: {spec: {template: {spec: {volumes: []}}}}}\n'));
    expect(out).toEqual([expect.stringMatching(/^error: in\.yaml\[doc 1\]:8:\d+: ModelDeployment a\/phi: spec\.provider\.overrides\.spec\.template\.spec\.volumes: .*no volume named "shm"/)]);
  });

  test('an env var name with "="', async () => {
    expect(await refused(md('  engine: {type: vllm}\n  provider: {name: vllm}\n  env: [{name: "A=B", value: x}]\n'))).toEqual([
      expect.stringMatching(/^error: in\.yaml\[doc 1\]:8:\d+: ModelDeployment a\/phi: spec\.env\[0\]\.name: Invalid value: "A=B"/),
    ]);
  });

  test('KubeRay: a flag value vLLM\'s engine would not read (an integer option given more than an integer)', async () => {
    expect(await refused(md('  engine: {type: vllm, args: {max-model-len: "4096 --trust-remote-code"}}\n  resources: {gpu: {count: 1}}\n  provider: {name: kuberay}\n'))).toEqual([
      expect.stringMatching(/^error: in\.yaml\[doc 1\]:6:\d+: ModelDeployment a\/phi: spec\.engine\.args\.max-model-len: Invalid value: "4096 --trust-remote-code": --max-model-len takes an integer/),
    ]);
  });

  test('a Gateway document that is not a Gateway (spec: 5)', async () => {
    const gateway = 'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: a}\nspec: 5\n---\n';
    expect(await refused(gateway + md('  engine: {type: vllm}\n  provider: {name: vllm}\n'))).toEqual([
      'error: in.yaml[doc 1]:4:1: Gateway a/gw: spec: must be object, got number 5',
    ]);
  });

  test('valid input still synthesizes', async () => {
    const r = await run('synth', '-f', temp.file('ok.yaml', md('  engine: {type: vllm}\n  resources: {gpu: {count: 2}}\n  provider: {name: vllm, overrides: {spec: {minReadySeconds: 5}}}\n  env: [{name: "my var.1", value: x}]\n')));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
  });
});
