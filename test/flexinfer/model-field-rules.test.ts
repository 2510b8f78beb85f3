import { formatFieldError } from '../../src/core/field-error';
import {
  cacheStrategyFieldErrors,
  gpuCountErrors,
  minReplicasErrors,
  positiveDurationErrors,
  sharedGroupSettingErrors,
  vendorNodeSelectorErrors,
} from '../../src/flexinfer/model-field-rules';

/*
 * Each rule is called with the Model's own path (the FlexInferModel construct) and with the path
 * of the field an AI Runway user wrote (the provider); each message names its own path.
 */

const rendered = (errors: ReturnType<typeof gpuCountErrors>) => errors.map(formatFieldError);
const PRIORITY_ANNOTATION = 'metadata.annotations["inference.cdk8s.io/flexinfer-gpu-priority"]';
const COOLDOWN_ANNOTATION = 'metadata.annotations["inference.cdk8s.io/flexinfer-gpu-swap-cooldown"]';

describe('FlexInfer field rules at either path', () => {
  test('gpu.count: at most 8, naming the Model field only where the user wrote another one', () => {
    expect(rendered(gpuCountErrors('spec.gpu.count', 9))).toEqual(['spec.gpu.count: Invalid value: 9: a FlexInfer Model takes 1 to 8 GPUs per replica']);
    expect(rendered(gpuCountErrors('spec.resources.gpu.count', 9))).toEqual([
      'spec.resources.gpu.count: Invalid value: 9: a FlexInfer Model takes 1 to 8 GPUs per replica (gpu.count)',
    ]);
    expect(gpuCountErrors('spec.resources.gpu.count', 8)).toEqual([]);
  });

  test('serverless.minReplicas: at most 10, saying how another field becomes it', () => {
    expect(rendered(minReplicasErrors('spec.serverless.minReplicas', 11))).toEqual(['spec.serverless.minReplicas: Invalid value: 11: must be a whole number from 0 to 10']);
    expect(rendered(minReplicasErrors('spec.scaling.replicas', 11, 11, 'a fixed replica count'))).toEqual([
      'spec.scaling.replicas: Invalid value: 11: FlexInfer keeps a fixed replica count through serverless.minReplicas, at most 10',
    ]);
    expect(minReplicasErrors('spec.scaling.replicas', 10, 10, 'a fixed replica count')).toEqual([]);
  });

  test('priority and swap cooldown need a shared group, named where the user sets it', () => {
    const gpu = { priority: 5, swapCooldown: '6m' };
    expect(rendered(sharedGroupSettingErrors(gpu, { priority: 'spec.gpu.priority', swapCooldown: 'spec.gpu.swapCooldown' }, 'gpu.shared'))).toEqual([
      'spec.gpu.priority: Invalid value: 5: priority only orders the models of a shared GPU group; set gpu.shared too',
      'spec.gpu.swapCooldown: Invalid value: "6m": the swap cooldown belongs to a shared GPU group; set gpu.shared too',
    ]);
    expect(rendered(sharedGroupSettingErrors(gpu, { priority: PRIORITY_ANNOTATION, swapCooldown: COOLDOWN_ANNOTATION },
      'inference.cdk8s.io/flexinfer-gpu-shared', { priority: '5' }))).toEqual([
      `${PRIORITY_ANNOTATION}: Invalid value: "5": priority only orders the models of a shared GPU group; set inference.cdk8s.io/flexinfer-gpu-shared too`,
      `${COOLDOWN_ANNOTATION}: Invalid value: "6m": the swap cooldown belongs to a shared GPU group; set inference.cdk8s.io/flexinfer-gpu-shared too`,
    ]);
    expect(sharedGroupSettingErrors({ ...gpu, shared: 'g' }, { priority: 'p', swapCooldown: 's' }, 'gpu.shared')).toEqual([]);
  });

  test('durations: positive Go durations, shown as the user wrote them', () => {
    expect(rendered(positiveDurationErrors('spec.serverless.idleTimeout', '0s'))).toEqual([
      'spec.serverless.idleTimeout: Invalid value: "0s": must be a positive Go duration such as "90s", "5m" or "1h30m"',
    ]);
    expect(rendered(positiveDurationErrors('metadata.annotations["inference.cdk8s.io/flexinfer-idle-timeout"]', '5 minutes', ' 5 minutes'))).toEqual([
      'metadata.annotations["inference.cdk8s.io/flexinfer-idle-timeout"]: Invalid value: " 5 minutes": must be a positive Go duration such as "90s", "5m" or "1h30m"',
    ]);
    expect(positiveDurationErrors('spec.gpu.swapCooldown', '1h30m')).toEqual([]);
  });

  test('a cache field of another strategy names the field that picks the strategy', () => {
    expect(rendered(cacheStrategyFieldErrors('spec.cache.hostPath', '/x', 'Local', 'None', 'cache.strategy'))).toEqual([
      'spec.cache.hostPath: Invalid value: "/x": only applies to the Local cache strategy (here: None); set cache.strategy: Local',
    ]);
    expect(rendered(cacheStrategyFieldErrors('metadata.annotations["inference.cdk8s.io/flexinfer-cache-host-path"]', '/x', 'Local', 'None',
      'inference.cdk8s.io/flexinfer-cache-strategy'))).toEqual([
      'metadata.annotations["inference.cdk8s.io/flexinfer-cache-host-path"]: Invalid value: "/x": only applies to the Local cache strategy (here: None); set inference.cdk8s.io/flexinfer-cache-strategy: Local',
    ]);
    expect(cacheStrategyFieldErrors('spec.cache.hostPath', '/x', 'Local', 'Local', 'cache.strategy')).toEqual([]);
  });

  test('the vendor node selector names where the vendor came from', () => {
    const path = 'spec.nodeSelector["node.flexstack.io/gpu-vendor"]';
    expect(rendered(vendorNodeSelectorErrors(path, 'amd', 'nvidia', 'the Model (nvidia, from spec.gpu.vendor)'))).toEqual([
      `${path}: Invalid value: "amd": must match the GPU vendor of the Model (nvidia, from spec.gpu.vendor): the Model's CRD requires the two to agree`,
    ]);
    expect(vendorNodeSelectorErrors(path, 'amd', 'auto', 'the Model (auto, from spec.gpu.vendor)')).toEqual([]);
  });
});
