/**
 * `cdk8s-inference synth` with the annotation `inference.cdk8s.io/lora`: the adapters loaded by
 * the model server and routed by name through the Gateway; a bad annotation as field errors on
 * stderr and nothing on stdout.
 */
import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';
import { expectValidManifests } from '../support/schema-validator';

const temp = tempFolderPerTest('cdk8s-inference-cli-lora-');

/** A ModelDeployment with `adapters` (YAML lines, indented for the annotation) on `provider`. */
function deployment(provider: string, adapters: string[]): string {
  return `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: qwen
  namespace: ml
  annotations:
    inference.cdk8s.io/lora: |
      adapters:
${adapters.map((a) => `        ${a}`).join('\n')}
spec:
  model: {id: Qwen/Qwen3-0.6B, servedName: qwen}
  engine: {type: vllm}
  provider: {name: ${provider}}
  resources: {gpu: {count: 1}}
`;
}

const AT = 'metadata.annotations["inference.cdk8s.io/lora"]';

describe('cdk8s-inference synth with LoRA adapters', () => {
  test('a good annotation: exit 0; the adapters in the Deployment and the HTTPRoute', async () => {
    const md = temp.file('md.yaml', deployment('llmd', ['- {name: sql, source: "hf://acme/sql-lora"}', '- {name: chat, source: "pvc://adapters/chat"}']));
    const r = await run('synth', '-f', md, '--gateway', 'gateway-system/inference-gateway', '--body-based-router-installed');
    // The only message: the referenced Gateway must admit the route's namespace.
    expect(r.stderr).toEqual([expect.stringContaining('Gateway gateway-system/inference-gateway is not part of this app')]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    const pod = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'qwen').spec.template.spec;
    expect(pod.initContainers.map((c: any) => c.args)).toEqual([['download', 'acme/sql-lora', '--local-dir', '/lora-adapters/sql']]);
    expect(pod.containers[0].args).toEqual(expect.arrayContaining(['--lora-modules', 'sql=/lora-adapters/sql', 'chat=/lora-adapters/chat']));
    const route = docs.find((d) => d.kind === 'HTTPRoute');
    expect(route.spec.rules[0].matches.map((m: any) => m.headers[0].value)).toEqual(['qwen', 'sql', 'chat']);
  });

  test('fails on a bad adapter, with its path under the annotation, and writes nothing', async () => {
    const md = temp.file('md.yaml', deployment('vllm', ['- {name: "sql lora", source: "git://x"}']));
    const r = await run('synth', '-f', md);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.join('\n')).toContain(`${AT}.adapters[0].name: Invalid value: "sql lora": must be 1 to 63 letters`);
    expect(r.stderr.join('\n')).toContain(`${AT}.adapters[0].source: Invalid value: "git://x": must be hf://<org>/<repo>[@<revision>] or pvc://<claim>[/<path>]`);
  });

  test('fails on a target without adapters, naming those that have them', async () => {
    const md = temp.file('md.yaml', deployment('kuberay', ['- {name: sql, source: "hf://acme/sql-lora"}']));
    const r = await run('synth', '-f', md);
    expect(r.code).toBe(1);
    expect(r.stderr.join('\n')).toContain(`${AT}: Forbidden: provider KubeRay (explicit provider selection) does not support lora-adapters; targets that support it: kthena, llmd, vllm`);
  });
});
