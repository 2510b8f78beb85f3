import { unrenderableKeyErrors } from '../../src/core/unrenderable-keys';
import { run, tempFolderPerTest } from '../support/cli-run';

const { file } = tempFolderPerTest('cdk8s-inference-keys-');

const deployment = (extra: string, metadata = '') => `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: m1
  namespace: ml
${metadata}spec:
  model:
    id: Qwen/Qwen3-0.6B
  provider:
    name: vllm
  resources:
    gpu:
      count: 1
${extra}`;

describe('map keys cdk8s cannot render', () => {
  test.each([
    ['a label', deployment('', '  labels:\n    constructor: x\n'), 'metadata.labels.constructor'],
    ['an engine flag', deployment('  engine:\n    args:\n      constructor: "1"\n'), 'spec.engine.args.constructor'],
    ['a node selector', deployment('  nodeSelector:\n    constructor: a\n'), 'spec.nodeSelector.constructor'],
    ['a pod label', deployment('  podTemplate:\n    metadata:\n      labels:\n        constructor: z\n'), 'spec.podTemplate.metadata.labels.constructor'],
    ['an override', deployment('').replace('    name: vllm\n', '    name: vllm\n    overrides:\n      spec:\n        constructor: 1\n'), 'spec.provider.overrides.spec.constructor'],
    ['a __proto__ node selector (which vanished from the output)', deployment('  nodeSelector:\n    __proto__: b\n'), 'spec.nodeSelector.__proto__'],
  ])('%s is exit 1 naming the file, document and field, not exit 70', async (_what, text, field) => {
    const f = file('in.yaml', text);
    const r = await run('synth', '-f', f);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: '' });
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${f}\\[doc 1\\]:\\d+:\\d+: ModelDeployment ml/m1: ${field.replace(/[.[\]]/g, '\\$&')}: Invalid value: .*cannot be synthesized`));
  });

  test('a Gateway document with such a label is refused at its document', async () => {
    const gateway = 'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw\n  namespace: gw\n  labels:\n    constructor: x\nspec:\n  gatewayClassName: c\n  listeners:\n  - name: http\n    port: 80\n    protocol: HTTP\n';
    const f = file('gw.yaml', `${gateway}---\n${deployment('')}`);
    const r = await run('synth', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${f}\\[doc 1\\].*metadata\\.labels\\.constructor: Invalid value: "constructor"`));
  });

  test('other keys named like Object.prototype members render as they are', async () => {
    const f = file('ok.yaml', deployment('  nodeSelector:\n    toString: a\n    hasOwnProperty: b\n'));
    const r = await run('synth', '-f', f);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('nodeSelector:\n        hasOwnProperty: b\n        toString: a\n');
    expect(unrenderableKeyErrors({ a: [{ b: { toString: 1 } }] }, 'spec')).toEqual([]);
    expect(unrenderableKeyErrors({ a: [{ b: { constructor: 1 } }] }, 'spec').map((e) => e.path)).toEqual(['spec.a[0].b.constructor']);
  });
});
