import {
  coversToleration,
  gpuTaintAnnotationErrors,
  gpuTaintKey,
  gpuTaintToleration,
  toleratesGpuTaint,
} from '../../src/core/gpu-taint-toleration';

describe('GPU taint toleration', () => {
  test.each([
    ['nvidia.com/gpu', 'nvidia.com/gpu'],
    ['nvidia.com/mig-1g.10gb', 'nvidia.com/gpu'],
    ['amd.com/gpu', 'amd.com/gpu'],
    ['amd.com/xcp', 'amd.com/gpu'],
    ['gpu.intel.com/i915', 'gpu.intel.com/i915'],
  ])('the taint key of %s GPUs is %s', (type, key) => {
    expect(gpuTaintKey(type)).toBe(key);
    expect(gpuTaintToleration(type)).toEqual({ key, operator: 'Exists', effect: 'NoSchedule' });
  });

  test('on unless "false" opts out; "true" and "false" are the values allowed', () => {
    expect(toleratesGpuTaint({ 'inference.cdk8s.io/tolerate-gpu-taint': 'true' })).toBe(true);
    expect(toleratesGpuTaint({ 'inference.cdk8s.io/tolerate-gpu-taint': 'false' })).toBe(false);
    expect(toleratesGpuTaint(undefined)).toBe(true);
    expect(toleratesGpuTaint({})).toBe(true);
    expect(gpuTaintAnnotationErrors({ 'inference.cdk8s.io/tolerate-gpu-taint': 'false' })).toEqual([]);
    expect(gpuTaintAnnotationErrors({})).toEqual([]);
    expect(gpuTaintAnnotationErrors({ 'inference.cdk8s.io/tolerate-gpu-taint': '1' }).map((e) => e.path)).toEqual([
      'metadata.annotations["inference.cdk8s.io/tolerate-gpu-taint"]',
    ]);
  });

  test.each([
    [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }, true],
    [{ key: 'nvidia.com/gpu', operator: 'Exists' }, true],
    [{ operator: 'Exists' }, true],
    [{ operator: 'Exists', effect: 'NoSchedule' }, true],
    [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoExecute' }, false],
    [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' }, false],
    [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }, false],
    [{ key: 'amd.com/gpu', operator: 'Exists', effect: 'NoSchedule' }, false],
  ])('%j covers the nvidia.com/gpu taint toleration: %s', (existing, covers) => {
    expect(coversToleration(existing, gpuTaintToleration('nvidia.com/gpu'))).toBe(covers);
  });
});
