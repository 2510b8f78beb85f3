/**
 * Regressions of what the contract fuzzing (test/cli/fuzz-contract.test.ts, scripts/fuzz-cli.ts)
 * found, each reduced to its smallest input: exit 1 naming the file, document and field, never
 * exit 70 or output the API server refuses.
 */
import { run, tempFolderPerTest } from '../support/cli-run';

const temp = tempFolderPerTest('cdk8s-inference-fuzz-findings-');

const md = (name: string, spec: string) => `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: ${name}, namespace: a}
spec:
  model: {id: Qwen/Qwen3-0.6B}
${spec}`;

async function refused(text: string): Promise<string[]> {
  const f = temp.file('in.yaml', text);
  const r = await run('synth', '-f', f);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(1);
  return r.stderr.slice(0, -1).map((l) => l.split(f).join('in.yaml'));
}

describe('inputs the fuzzing found', () => {
  test('a YAML !!set value is a field error, not exit 70 ("can\'t render non-simple object of type Set")', async () => {
    expect(await refused(md('phi', '  provider: {name: vllm}\n  nodeSelector: !!set {a, b}\n'))).toEqual([
      expect.stringMatching(/^error: in\.yaml\[doc 1\]:\d+:\d+: ModelDeployment a\/phi: spec\.nodeSelector: Invalid value: "<Set>": a YAML !!set value cannot be synthesized: write a plain mapping, list or string$/),
    ]);
  });

  test('!!omap and !!timestamp values are field errors too', async () => {
    const omap = await refused(md('phi', '  provider: {name: vllm}\n  podTemplate: {metadata: {labels: !!omap [{a: b}]}}\n'));
    expect(omap.join('\n')).toMatch(/spec\.podTemplate\.metadata\.labels: Invalid value: "<Map>": a YAML !!omap or !!pairs value cannot be synthesized/);
    const out = await refused(md('phi', '  provider: {name: vllm}\n  secrets: {huggingFaceToken: !!timestamp 2001-12-14}\n'));
    // A timestamp where a string belongs is a type error of the schema check, before rendering.
    expect(out.join('\n')).toMatch(/spec\.secrets\.huggingFaceToken: Invalid value: "2001-12-14T00:00:00\.000Z": must be of type string/);
  });

  test('two documents that synthesize the same object: the error names the file and both documents', async () => {
    const spec = '  provider: {name: vllm}\n  engine: {type: vllm}\n  resources: {gpu: {count: 1}}\n';
    const out = await refused(`${md('phi', spec)}---\n${md('phi', spec)}`);
    expect(out[0]).toBe('error: in.yaml[doc 2]: Deployment "a/phi" is synthesized twice: by in.yaml[doc 1] and by in.yaml[doc 2]; give one of the deployments another name or namespace');
    expect(out.every((l) => l.startsWith('error: in.yaml[doc 2]: '))).toBe(true);
  });

  test('an invalid pod label is refused at its spec path, where the v1beta1 DynamoGraphDeployment\'s pod templates carry it', async () => {
    expect(await refused(md('phi', '  provider: {name: dynamo}\n  engine: {type: vllm}\n  resources: {gpu: {count: 1}}\n  podTemplate: {metadata: {labels: {"-x": ok}}}\n'))).toEqual([0, 1].map((i) =>
      expect.stringMatching(new RegExp('^error: in\\.yaml\\[doc 1\\]:\\d+:\\d+: ModelDeployment a/phi: spec\\.podTemplate\\.metadata\\.labels\\["-x"\\]: Invalid value: "ok": ' +
        `label key "-x" is invalid: .*must start and end with an alphanumeric character \\(in the synthesized DynamoGraphDeployment "phi" at spec\\.components\\[${i}\\]`))));
  });

  test('an invalid env var name in overrides a provider ignores (KubeRay) is refused in the record', async () => {
    const out = await refused(md('phi', '  provider: {name: kuberay, overrides: {spec: {x: {containers: [{name: c, env: [{name: "", value: x}]}]}}}}\n  engine: {type: vllm}\n  resources: {gpu: {count: 1}}\n'));
    expect(out).toEqual([expect.stringMatching(/^error: in\.yaml\[doc 1\]:\d+:\d+: ModelDeployment a\/phi: spec\.provider\.overrides\.spec\.x\.containers\[0\]\.env\[0\]\.name: Invalid value: "": environment variable name "" is invalid: must not be empty/)]);
  });
});
