/**
 * `cdk8s-inference synth` with the DRA annotation `inference.cdk8s.io/devices`: the claim
 * template and the pod claims in the output; a bad selector as a field error with its position,
 * and nothing written.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { run, tempFolderPerTest } from '../support/cli-run';
import { expectValidManifests } from '../support/schema-validator';

const temp = tempFolderPerTest('cdk8s-inference-cli-devices-');
const file = temp.file;

/** A ModelDeployment claiming `selectors` (YAML list items, indented for the annotation). */
function deployment(opts: { name?: string; provider?: string; gpus?: number; request?: string; count?: number; selectors: string[] }): string {
  const selectors = opts.selectors.map((s) => `            - ${s}`).join('\n');
  return `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: ${opts.name ?? 'qwen'}
  namespace: ml
  annotations:
    inference.cdk8s.io/devices: |
      resources:
        - name: ${opts.request ?? 'gpu'}
          deviceClassName: gpu.nvidia.com
          count: ${opts.count ?? 2}
          selectors:
${selectors}
spec:
  model: {id: Qwen/Qwen3-0.6B}
  provider: {name: ${opts.provider ?? 'vllm'}}
  resources: {gpu: {count: ${opts.gpus ?? 2}}}
`;
}

const DEVICES_PATH = 'metadata.annotations["inference.cdk8s.io/devices"]';

describe('cdk8s-inference synth with device requests', () => {
  test('a good annotation: exit 0, the ResourceClaimTemplate and the pod claims on stdout', async () => {
    const md = file('md.yaml', deployment({
      selectors: [
        'memoryAtLeast: 40Gi',
        'productName: NVIDIA H100 80GB HBM3',
        '{attribute: gpu.nvidia.com/architecture, equals: Hopper}',
        '{capacity: gpu.nvidia.com/memory, atLeast: 40Gi}',
        'cel: \'device.driver == "gpu.nvidia.com"\'',
      ],
    }));
    const r = await run('synth', '-f', md);
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.stdout).map((d) => d.toJS());
    expectValidManifests(docs);
    expect(docs.map((d) => `${d.kind}/${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      'Deployment/ml/qwen',
      'Service/ml/qwen',
      'ResourceClaimTemplate/ml/qwen-devices',
      'ModelDeployment/ml/qwen',
    ]);
    const template = docs.find((d) => d.kind === 'ResourceClaimTemplate');
    expect(template.apiVersion).toBe('resource.k8s.io/v1');
    expect(template.spec.spec.devices.requests).toEqual([{
      name: 'gpu',
      exactly: {
        deviceClassName: 'gpu.nvidia.com',
        count: 2,
        selectors: [
          'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
          'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"',
          'device.attributes["gpu.nvidia.com"].architecture == "Hopper"',
          'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
          'device.driver == "gpu.nvidia.com"',
        ].map((expression) => ({ cel: { expression } })),
      },
    }]);
    const pod = docs.find((d) => d.kind === 'Deployment').spec.template.spec;
    expect(pod.resourceClaims).toEqual([{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }]);
    expect(pod.containers[0].resources).toEqual({ claims: [{ name: 'devices' }] });
    expect(r.stdout).not.toContain('nvidia.com/gpu:');
  });

  test('-o writes the template into the deployment\'s file', async () => {
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', file('md.yaml', deployment({ request: 'to-file', selectors: ['memoryAtLeast: 24Gi'] })), '-o', out);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(fs.readFileSync(path.join(out, 'ml', 'qwen.k8s.yaml'), 'utf8')).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toContain('ResourceClaimTemplate');
  });

  test('a bad CEL selector: exit 1, the annotation field path, the position and the caret; nothing written', async () => {
    const bad = file('bad.yaml', deployment({
      request: 'bad-cel',
      selectors: ['memoryAtLeast: 40Gi', 'cel: \'device.capacity["x"].memory.compareTo("20Gi") >= 0\''],
    }));
    const out = path.join(temp.dir(), 'out');
    const r = await run('synth', '-f', bad, '-o', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${bad}[doc 1]:7:5: ModelDeployment ml/qwen: ${DEVICES_PATH}.resources[0].selectors[1].cel: ` +
        'Invalid value: "device.capacity[\\"x\\"].memory.compareTo(\\"20Gi\\") >= 0": invalid CEL device selector:\n' +
        "<input>:1:29: found no matching overload for 'compareTo' applied to 'kubernetes.Quantity.(string)'; expected kubernetes.Quantity.compareTo(kubernetes.Quantity)\n" +
        ' | device.capacity["x"].memory.compareTo("20Gi") >= 0\n' +
        ` | ${'.'.repeat(28)}^`,
      '1 error(s); nothing was written.',
    ]);
    expect(r.stdout).toBe('');
    expect(fs.existsSync(out)).toBe(false);
  });

  test('a bad CEL selector without -o: nothing on stdout', async () => {
    const r = await run('synth', '-f', file('bad.yaml', deployment({ request: 'bad-syntax', selectors: ['cel: \'device.driver == "a" &&\''] })));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr[0]).toContain(`${DEVICES_PATH}.resources[0].selectors[0].cel: Invalid value: `);
    expect(r.stderr[0]).toMatch(/\n<input>:1:\d+: syntax error: .*\n \| device\.driver == "a" &&\n \| \.*\^$/);
  });

  test('an annotation that is not YAML, and KAITO, each with its path', async () => {
    const notYaml = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: broken
  annotations: {inference.cdk8s.io/devices: "resources: [unclosed"}
spec: {model: {id: Qwen/Qwen3-0.6B}, provider: {name: vllm}, resources: {gpu: {count: 1}}}
`;
    const kaito = deployment({ name: 'on-kaito', provider: 'kaito', request: 'kaito', selectors: ['memoryAtLeast: 40Gi'] });
    const input = file('two.yaml', `${notYaml}---\n${kaito}`);
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      expect.stringMatching(new RegExp(`^error: ${input.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\[doc 1\\]:5:17: ModelDeployment broken: metadata\\.annotations\\["inference\\.cdk8s\\.io/devices"\\]: Invalid value: "resources: \\[unclosed": is not YAML or JSON: `)),
      `error: ${input}[doc 2]:14:5: ModelDeployment ml/on-kaito: ${DEVICES_PATH}: Forbidden: provider KAITO (explicit provider selection) cannot carry DRA device claims in its pods; ` +
        'set spec.provider.name to one that can: dynamo, kthena, kuberay, llmd, modelplane, vllm, or request GPUs through spec.resources.gpu instead',
      '2 error(s); nothing was written.',
    ]);
    expect(r.stdout).toBe('');
  });

  // BUG (src/provider-kit/device-annotation.ts, devicesAnnotationErrors mutates the cached parse result):
  // the gpu.count error of the first document is reported for the second too, which asks for no
  // more GPUs than it claims. Remove `.failing` once fixed.
  test('an error of one document does not spill onto another with the same annotation', async () => {
    const tooMany = deployment({ name: 'first', request: 'shared', count: 2, gpus: 4, selectors: ['memoryAtLeast: 16Gi'] });
    const fine = deployment({ name: 'second', request: 'shared', count: 2, gpus: 2, selectors: ['memoryAtLeast: 16Gi'] });
    const input = file('two.yaml', `${tooMany}---\n${fine}`);
    const r = await run('synth', '-f', input);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      expect.stringMatching(/\[doc 1\]:17:21: ModelDeployment ml\/first: spec\.resources\.gpu\.count: Invalid value: 4: /),
      '1 error(s); nothing was written.',
    ]);
  });
});
