/**
 * The narrower `spec.provider.overrides` rules end to end through `cdk8s-inference synth` and
 * `explain`: a field error with file, document, line and the full field path, exit 1, and nothing
 * written (not even the valid documents beside it); KubeRay's ignored overrides a warning.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';

const temp = tempFolderPerTest('cdk8s-inference-cli-overrides-');

const md = (name: string, provider: string, overrides: string) => `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: ${name}, namespace: ml}
spec:
  model: {id: Qwen/Qwen3-0.6B}
  engine: {type: vllm}
  resources: {gpu: {count: 1}}
  provider:
    name: ${provider}
    overrides: ${overrides}
`;

describe('cdk8s-inference and the overrides rules', () => {
  test('synth -o: KAITO resource.count and a replicas key are errors at their paths, and nothing is written', async () => {
    const input = temp.file('in.yaml', [
      md('fine', 'vllm', '{spec: {minReadySeconds: 5}}'),
      md('count', 'kaito', '{resource: {count: 3}}'),
      md('deep', 'vllm', '{spec: {template: {spec: {containers: [{name: m, replicas: 2}]}}}}'),
    ].join('---\n'));
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', input, '-o', out);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toEqual([
      expect.stringMatching(new RegExp(`^error: ${escape(input)}\\[doc 2\\]:21:\\d+: ModelDeployment ml/count: spec\\.provider\\.overrides\\.resource\\.count: Forbidden: ` +
        'overriding "resource\\.count" is not allowed: the Workspace\'s node count comes from spec\\.scaling\\.replicas')),
      expect.stringMatching(new RegExp(`^error: ${escape(input)}\\[doc 3\\]:32:\\d+: ModelDeployment ml/deep: ` +
        'spec\\.provider\\.overrides\\.spec\\.template\\.spec\\.containers\\[0\\]\\.replicas: Forbidden: overriding "replicas" is not allowed .*spec\\.scaling\\.replicas')),
      '2 error(s); nothing was written.',
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('explain: an unknown root is refused by every provider that merges overrides, naming it; KubeRay ignores it', async () => {
    const input = temp.file('tuning.yaml', md('tune', 'kaito', '{tuning: {method: lora}}'));
    const r = await run('explain', '-f', input);
    expect(r.code).toBe(1);
    const verdicts = r.stdout.split('\n').filter((l) => /^ {4}[a-z]+: /.test(l));
    expect(verdicts.map((l) => l.trim().split(':')[0])).toEqual(['dynamo', 'flexinfer', 'kaito', 'kthena', 'kuberay', 'llmd', 'modelplane', 'vllm']);
    for (const line of verdicts) {
      if (line.trim().startsWith('kuberay:')) expect(line).toBe('    kuberay: can (engine vllm, aggregated)');
      else expect(line).toMatch(/: cannot: spec\.provider\.overrides\.tuning: Forbidden: .*"tuning"/);
    }
    expect(r.stderr).toEqual([
      `error: ${input}[doc 1]:10:17: ModelDeployment ml/tune: spec.provider.overrides.tuning: Forbidden: ` +
        'KAITO overrides accept only the root keys "resource" and "inference" (they merge into the Workspace root), not "tuning": ' +
        'a Workspace either serves a model (inference) or fine-tunes one (tuning), and the Workspace of a ModelDeployment serves',
    ]);
  });

  test('KubeRay: overrides are a warning naming them, and the RayService is written without them', async () => {
    const input = temp.file('ray.yaml', md('ray', 'kuberay', '{spec: {rayClusterConfig: {enableInTreeAutoscaling: true}}}'));
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([
      `warning: ${input}[doc 1]: KubeRay does not apply spec.provider.overrides, so spec.provider.overrides.spec is ignored ` +
        '(remove them; to change the RayService, patch it with addJsonPatch in a cdk8s app)',
    ]);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    const rayService = docs.find((d) => d.kind === 'RayService');
    expect(rayService.spec.rayClusterConfig.enableInTreeAutoscaling).toBeUndefined();
    // The ModelDeployment record keeps the overrides as written.
    expect(docs.find((d) => d.kind === 'ModelDeployment').spec.provider.overrides).toEqual({ spec: { rayClusterConfig: { enableInTreeAutoscaling: true } } });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
