import { Testing } from 'cdk8s';
import { flexInferDeployment } from './fixtures';
import { formatFieldError } from '../../../src/core/field-error';
import { FlexInferBackend, FlexInferGpuVendor, FlexInferModel, FlexInferModelProps, FlexInferModelSource } from '../../../src/flexinfer';
import { validateFlexInfer } from '../../../src/providers/flexinfer/validation';

/*
 * One FlexInfer rule, two faces: the FlexInferModel construct reports it at the Model's path, the
 * AI Runway provider at the field its user wrote.
 */

function constructErrors(props: Partial<FlexInferModelProps>): string[] {
  const model = new FlexInferModel(Testing.chart(), 'qwen', {
    metadata: { name: 'qwen' },
    backend: FlexInferBackend.VLLM,
    source: FlexInferModelSource.huggingFace('Qwen/Qwen3-0.6B'),
    ...props,
  });
  return model.node.validate();
}

function providerErrors(spec: any, annotations: Record<string, string> = {}): string[] {
  return validateFlexInfer(flexInferDeployment({ spec, annotations })).map(formatFieldError);
}

describe('a FlexInfer rule reported at each user\'s own path', () => {
  test('the 8-GPU limit', () => {
    expect(constructErrors({ gpu: { vendor: FlexInferGpuVendor.NVIDIA, count: 9 } })).toEqual([
      'spec.gpu.count: Invalid value: 9: a FlexInfer Model takes 1 to 8 GPUs per replica',
    ]);
    expect(providerErrors({ resources: { gpu: { count: 9, type: 'nvidia.com/gpu' } } })).toEqual([
      'spec.resources.gpu.count: Invalid value: 9: a FlexInfer Model takes 1 to 8 GPUs per replica (gpu.count)',
    ]);
  });

  test('the priority range', () => {
    expect(constructErrors({ gpu: { vendor: FlexInferGpuVendor.NVIDIA, shared: 'g', priority: 1001 } })).toEqual([
      'spec.gpu.priority: Invalid value: 1001: must be a whole number from 0 to 1000',
    ]);
    expect(providerErrors({}, { 'inference.cdk8s.io/flexinfer-gpu-shared': 'g', 'inference.cdk8s.io/flexinfer-gpu-priority': '1001' })).toEqual([
      'metadata.annotations["inference.cdk8s.io/flexinfer-gpu-priority"]: Invalid value: "1001": must be a whole number from 0 to 1000',
    ]);
  });

  test('a GPU-only backend on CPU', () => {
    expect(constructErrors({ gpu: { vendor: FlexInferGpuVendor.CPU } })).toEqual([
      'spec.gpu.vendor: Invalid value: "cpu": FlexInfer\'s vllm backend runs on NVIDIA or AMD GPUs only; set gpu.vendor to auto, nvidia or amd, or use backend llamacpp',
    ]);
    expect(providerErrors({ resources: { cpu: '8' } })).toEqual([
      "spec.resources.gpu.count: Invalid value: 0: FlexInfer's vllm backend runs on NVIDIA or AMD GPUs only; request GPUs, or use engine llamacpp to run on CPU",
    ]);
  });

  test('the shared group name, which FlexInfer puts in a pod label', () => {
    expect(constructErrors({ gpu: { vendor: FlexInferGpuVendor.NVIDIA, shared: 'my group' } })[0])
      .toMatch(/^spec\.gpu\.shared: Invalid value: "my group": must be a group name usable as a label value/);
    expect(providerErrors({}, { 'inference.cdk8s.io/flexinfer-gpu-shared': 'my group' })[0])
      .toMatch(/^metadata\.annotations\["inference\.cdk8s\.io\/flexinfer-gpu-shared"\]: Invalid value: "my group": must be a group name usable as a label value/);
  });
});
