/**
 * `explain` lists every registered target and whether it could take the deployment, resolving
 * the deployment once per target as if `spec.provider.name` named it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/main';

async function explain(yaml: string): Promise<{ code: number; stdout: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-inference-explain-'));
  try {
    const file = path.join(dir, 'md.yaml');
    fs.writeFileSync(file, yaml);
    let stdout = '';
    const code = await main(['explain', '-f', file], { stdout: (t) => (stdout += t), stderr: () => undefined });
    return { code, stdout };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function targetLines(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith('  targets '));
  return lines.slice(start + 1).filter((l) => l.startsWith('    ')).map((l) => l.trim()).filter((l) => /^[a-z-]+: (can|cannot)/.test(l));
}

describe('explain: which of the eight targets can take the deployment', () => {
  test('disaggregated vLLM: the targets that serve it, and why the others cannot', async () => {
    const { code, stdout } = await explain(`apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: { name: qwen, namespace: ml }
spec:
  model: { id: Qwen/Qwen3-8B }
  engine: { type: vllm }
  serving: { mode: disaggregated }
  scaling:
    prefill: { replicas: 1, gpu: { count: 1 } }
    decode: { replicas: 1, gpu: { count: 1 } }
`);
    expect(code).toBe(0);
    expect(stdout).toContain('  targets (if spec.provider.name named each):\n');
    const others = 'targets that support it: dynamo, kthena, kuberay, llmd, modelplane';
    expect(targetLines(stdout)).toEqual([
      'dynamo: can (engine vllm, disaggregated)',
      `flexinfer: cannot: spec.serving.mode: Invalid value: "disaggregated": provider flexinfer does not support disaggregated mode for engine vllm; ${others}`,
      `kaito: cannot: spec.serving.mode: Invalid value: "disaggregated": provider kaito does not support disaggregated mode for engine vllm; ${others}`,
      'kthena: can (engine vllm, disaggregated)',
      'kuberay: can (engine vllm, disaggregated)',
      'llmd: can (engine vllm, disaggregated)',
      'modelplane: can (engine vllm, disaggregated)',
      `vllm: cannot: spec.serving.mode: Invalid value: "disaggregated": provider vllm does not support disaggregated mode for engine vllm; ${others}`,
    ]);
  });

  test('the provider the deployment names does not hide the others', async () => {
    const { stdout } = await explain(`apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: { name: tiny, namespace: ml }
spec:
  model: { id: Qwen/Qwen3-0.6B }
  engine: { type: llamacpp, image: ghcr.io/example/llama-cpp:server }
  provider: { name: kaito }
`);
    const lines = targetLines(stdout);
    expect(lines).toContain('kaito: can (engine llamacpp, aggregated)');
    expect(lines).toContain('dynamo: cannot: spec.engine.type: Invalid value: "llamacpp": provider dynamo does not support engine llamacpp; targets that support it: flexinfer, kaito');
    expect(lines).toHaveLength(8);
  });
});
