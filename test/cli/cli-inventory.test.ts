import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';
import { expectValidManifests } from '../support/schema-validator';

const temp = tempFolderPerTest('cdk8s-inference-cli-inventory-');
const file = temp.file;

const POOLS = `apiVersion: inference.cdk8s.io/v1alpha1
kind: NodePool
metadata: { name: a10 }
spec:
  nodes: 4
  extendedResources: { nvidia.com/gpu: 1 }
  devices:
    - driver: gpu.nvidia.com
      deviceClassName: gpu.nvidia.com
      count: 1
      attributes: { productName: NVIDIA A10G, architecture: Ampere }
      capacity: { memory: 24Gi }
---
apiVersion: inference.cdk8s.io/v1alpha1
kind: NodePool
metadata: { name: h100 }
spec:
  nodes: 2
  extendedResources: { nvidia.com/gpu: 8 }
  devices:
    - driver: gpu.nvidia.com
      deviceClassName: gpu.nvidia.com
      count: 8
      attributes: { productName: NVIDIA H100 80GB HBM3, architecture: Hopper }
      capacity: { memory: 80Gi }
`;

/** A deployment claiming 2 devices of `product` (40Gi or more, Hopper) per pod, `replicas` pods. */
function claiming(product: string, replicas = 1): string {
  return `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: qwen
  namespace: ml
  annotations:
    inference.cdk8s.io/devices: |
      resources:
        - name: gpu
          deviceClassName: gpu.nvidia.com
          count: 2
          selectors:
            - memoryAtLeast: 40Gi
            - productName: ${product}
            - attribute: gpu.nvidia.com/architecture
              equals: Hopper
spec:
  model: { id: Qwen/Qwen3-0.6B }
  provider: { name: vllm }
  resources: { gpu: { count: 2 } }
  scaling: { replicas: ${replicas} }
`;
}

const H100_MD = claiming('NVIDIA H100 80GB HBM3');
const B200_MD = claiming('NVIDIA B200');

/** Extended-resource GPUs: `count` nvidia.com/gpu per pod. */
function gpus(count: number, replicas = 1): string {
  return `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: { name: phi, namespace: team-a }
spec:
  model: { id: microsoft/Phi-4-mini-instruct }
  provider: { name: vllm }
  resources: { gpu: { count: ${count} } }
  scaling: { replicas: ${replicas} }
`;
}

const B200_ERROR =
  'metadata.annotations["inference.cdk8s.io/devices"].resources: Invalid value: "requests gpu (2 × gpu.nvidia.com) per pod": ' +
  'InsufficientCapacity: no node pool holds 1 serving pod: ' +
  'pool a10: request gpu (2 × gpu.nvidia.com) matches no device of a node: 1 × gpu.nvidia.com NVIDIA A10G: selector 1 (memory at least 40Gi) is false; ' +
  'pool h100: request gpu (2 × gpu.nvidia.com) matches no device of a node: 8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: selector 2 (product name "NVIDIA B200") is false';

describe('cdk8s-inference synth with NodePool documents', () => {
  test('a deployment that fits a pool synthesizes, and the pools are not written', async () => {
    const r = await run('synth', '-f', file('md.yaml', H100_MD), '-f', file('pools.yaml', POOLS));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'Service', 'ResourceClaimTemplate', 'ModelDeployment']);
    expectValidManifests(docs);
  });

  test('pools may come before the deployments, in the same file', async () => {
    const r = await run('synth', '-f', file('all.yaml', `${POOLS}---\n${gpus(8, 2)}`));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    expect(parseAllDocuments(r.stdout).map((d) => d.toJS().kind)).toEqual(['Deployment', 'Service', 'ModelDeployment']);
  });

  test('a deployment no pool holds fails with InsufficientCapacity and nothing is written', async () => {
    const md = file('b200.yaml', B200_MD);
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', md, '-f', file('pools.yaml', POOLS), '-o', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${md}[doc 1]:7:5: ModelDeployment ml/qwen: ${B200_ERROR}`,
      '1 error(s); nothing was written.',
    ]);
    expect(fs.existsSync(out)).toBe(false);
    expect(r.stdout).toBe('');
  });

  test('one deployment that does not fit fails the whole synth, pods per node included in the reason', async () => {
    const all = file('all.yaml', `${gpus(3, 7)}---\n${H100_MD}`);
    const r = await run('synth', '-f', all, '-f', file('pools.yaml', POOLS.replace('nodes: 2', 'nodes: 3')));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toEqual([
      `error: ${all}[doc 1]:7:16: ModelDeployment team-a/phi: spec.resources.gpu: Invalid value: "3 × nvidia.com/gpu per pod": ` +
        'InsufficientCapacity: no node pool holds 7 serving pods: ' +
        'pool a10: a node has 1 nvidia.com/gpu, fewer than the 3 a pod requests; pool h100: holds 6 of the 7 pods (3 nodes × 2 per node)',
      '1 error(s); nothing was written.',
    ]);
  });

  test('without NodePool documents capacity is not checked', async () => {
    const r = await run('synth', '-f', file('b200.yaml', B200_MD));
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([]);
  });

  test('a bad NodePool document fails with its file, document index and field paths', async () => {
    const pools = file('pools.yaml', `${POOLS}---
apiVersion: inference.cdk8s.io/v1alpha1
kind: NodePool
metadata: { name: broken }
spec:
  nodes: -1
  labels: { "bad key!": x }
  devices:
    - driver: gpu.nvidia.com
      capacity: { memory: lots }
`);
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('md.yaml', H100_MD), '-f', pools, '-o', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${pools}[doc 3]:31:3: NodePool broken: spec.nodes: Invalid value: -1: must be a whole number of nodes, 0 or more`,
      `error: ${pools}[doc 3]:32:13: NodePool broken: spec.labels["bad key!"]: Invalid value: "x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      `error: ${pools}[doc 3]:35:19: NodePool broken: spec.devices[0].capacity["memory"]: Invalid value: "lots": must be a Kubernetes quantity such as "80Gi"`,
      '3 error(s); nothing was written.',
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a NodePool without a name or spec, or with an unknown field, is an error of its document', async () => {
    const pools = file('pools.yaml', `apiVersion: inference.cdk8s.io/v1alpha1
kind: NodePool
metadata: {}
---
apiVersion: inference.cdk8s.io/v1alpha1
kind: NodePool
metadata: { name: typo }
spec: { nodes: 1, node: 2 }
`);
    const r = await run('synth', '-f', file('md.yaml', gpus(1)), '-f', pools);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${pools}[doc 1]:3:1: NodePool <unnamed>: metadata.name: Required value: a NodePool needs a name`,
      `error: ${pools}[doc 1]: NodePool <unnamed>: spec: Required value: a NodePool needs a spec: {nodes, labels, extendedResources, devices}`,
      `error: ${pools}[doc 2]:8:19: NodePool typo: spec.node: Invalid value: 2: unknown field; known fields: nodes, labels, extendedResources, devices; did you mean "nodes"?`,
      '3 error(s); nothing was written.',
    ]);
  });

  test('a pool name declared twice is an error naming the earlier document', async () => {
    const first = file('pools.yaml', POOLS);
    const second = file('more.yaml', POOLS.split('---\n')[1]);
    const r = await run('synth', '-f', file('md.yaml', H100_MD), '-f', first, '-f', second);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${second}[doc 1]:3:13: NodePool h100: metadata.name: Duplicate value: "h100": also declared in ${first}[doc 2]`,
      '1 error(s); nothing was written.',
    ]);
  });

  test('a NodePool of another apiVersion is an unsupported kind', async () => {
    const pools = file('pools.yaml', POOLS.split('---\n')[1].replace('inference.cdk8s.io/v1alpha1', 'inference.cdk8s.io/v1'));
    const r = await run('synth', '-f', file('md.yaml', H100_MD), '-f', pools);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${pools}\\[doc 1\\]: unsupported kind "NodePool": .*NodePool \\(inference\\.cdk8s\\.io/v1alpha1\\)`));
  });
});

describe('cdk8s-inference explain with NodePool documents', () => {
  test('prints which pools fit, with pods per node, and why the others do not', async () => {
    const r = await run('explain', '-f', file('md.yaml', H100_MD), '-f', file('pools.yaml', POOLS));
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  capacity: '));
    expect(lines.slice(at, at + 2)).toEqual([
      '  capacity: 1 serving pod(s), requests gpu (2 × gpu.nvidia.com) per pod: fits h100 (4 per node)',
      '    a10: request gpu (2 × gpu.nvidia.com) matches no device of a node: 1 × gpu.nvidia.com NVIDIA A10G: selector 1 (memory at least 40Gi) is false',
    ]);
    expect(lines[at + 2]).not.toMatch(/^ {4}h100:/);
  });

  test('a deployment that fits no pool: InsufficientCapacity, each pool\'s reason, the error, exit 1', async () => {
    const md = file('b200.yaml', B200_MD);
    const r = await run('explain', '-f', md, '-f', file('pools.yaml', POOLS));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain([
      '  capacity: 1 serving pod(s), requests gpu (2 × gpu.nvidia.com) per pod: InsufficientCapacity',
      '    a10: request gpu (2 × gpu.nvidia.com) matches no device of a node: 1 × gpu.nvidia.com NVIDIA A10G: selector 1 (memory at least 40Gi) is false',
      '    h100: request gpu (2 × gpu.nvidia.com) matches no device of a node: 8 × gpu.nvidia.com NVIDIA H100 80GB HBM3: selector 2 (product name "NVIDIA B200") is false',
      `  error: ${B200_ERROR}`,
    ].join('\n'));
    expect(r.stderr).toEqual([`error: ${md}[doc 1]:7:5: ModelDeployment ml/qwen: ${B200_ERROR}`]);
  });

  test('several fitting pools are listed, each with its pods per node; prefill and decode get a line each', async () => {
    const disaggregated = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: { name: big, namespace: ml }
spec:
  model: { id: Qwen/Qwen3-0.6B }
  provider: { name: llmd }
  serving: { mode: disaggregated }
  scaling:
    prefill: { replicas: 2, gpu: { count: 1 } }
    decode: { replicas: 2, gpu: { count: 4 } }
`;
    const r = await run('explain', '-f', file('md.yaml', disaggregated), '-f', file('pools.yaml', POOLS));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain([
      '  capacity: 2 prefill pod(s), 1 × nvidia.com/gpu per pod: fits a10 (1 per node), h100 (8 per node)',
      '  capacity: 2 decode pod(s), 4 × nvidia.com/gpu per pod: fits h100 (2 per node)',
      '    a10: a node has 1 nvidia.com/gpu, fewer than the 4 a pod requests',
    ].join('\n'));
  });

  test('a deployment without GPUs says it is not checked; no pools, no capacity line', async () => {
    const cpu = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: { name: cpu, namespace: ml }
spec:
  model: { id: x/y-gguf }
  provider: { name: kaito }
  engine: { type: llamacpp }
  image: example.com/llama:1
`;
    const r = await run('explain', '-f', file('cpu.yaml', cpu), '-f', file('pools.yaml', POOLS));
    expect(r.stdout).toContain('  capacity: no GPUs or devices requested; not checked\n');
    const none = await run('explain', '-f', file('md.yaml', H100_MD));
    expect(none.code).toBe(0);
    expect(none.stdout).not.toContain('capacity:');
  });
});
