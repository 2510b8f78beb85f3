import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';

const { file } = tempFolderPerTest('cdk8s-inference-cli-warnings-');

const PHI_NIGHTLY = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: phi, namespace: team-a}
spec:
  model: {id: microsoft/Phi-4-mini-instruct, storage: {volumes: [{name: cache, purpose: modelCache, size: 50Gi, accessMode: ReadWriteOnce}]}}
  provider: {name: vllm}
  engine: {type: vllm, image: vllm/vllm-openai:nightly}
  scaling: {replicas: 2}
`;

describe('cdk8s-inference synth prints the warnings on stderr, the YAML stays on stdout', () => {
  test('a moving image, a ReadWriteOnce volume shared by two replicas and a route without a body-based router', async () => {
    const input = file('phi.yaml', PHI_NIGHTLY);
    const r = await run('synth', '-f', input, '--gateway', 'team-a/inference-gateway');
    expect(r.code).toBe(0);
    expect(parseAllDocuments(r.stdout).map((d) => d.toJS().kind)).toContain('HTTPRoute');
    expect(r.stderr).toEqual([
      expect.stringMatching(new RegExp(`^warning: ${input}\\[doc 1\\]: spec\\.engine\\.image "vllm/vllm-openai:nightly" is a moving image`)),
      expect.stringMatching(new RegExp(`^warning: ${input}\\[doc 1\\]: spec\\.model\\.storage\\.volumes\\[0\\]\\.accessMode is ReadWriteOnce`)),
      expect.stringMatching(new RegExp(`^warning: ${input}\\[doc 1\\]: HTTPRoute team-a/phi matches on the X-Gateway-Model-Name header`)),
    ]);
  });

  test('--body-based-router-installed says the header is set: no router warning', async () => {
    const r = await run('synth', '-f', file('phi.yaml', PHI_NIGHTLY), '--gateway', 'team-a/inference-gateway', '--body-based-router-installed');
    expect(r.code).toBe(0);
    expect(r.stderr.filter((l) => l.includes('X-Gateway-Model-Name'))).toEqual([]);
    expect(r.stderr).toHaveLength(2);
  });

  test('--body-based-router-installed takes no value', async () => {
    const r = await run('synth', '-f', file('phi.yaml', PHI_NIGHTLY), '--body-based-router-installed=yes');
    expect(r.code).toBe(2);
    expect(r.stderr[0]).toContain('--body-based-router-installed takes no value');
  });
});
