import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../../support/resolved-deployment';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the Dynamo translator after admission defaults and selection:
 * Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on, as the CRD defaults it),
 * aggregated, one replica, one GPU, provider dynamo, gateway not mentioned (so on). Top-level
 * `spec` fields given replace the baseline's, except `model` and `engine`, which are merged.
 */
export function dynamoDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('dynamo', options);
}

/** Disaggregated: 2 decode replicas × 2 GPUs (64Gi), 1 prefill replica × 1 GPU (32Gi). */
export function disaggregatedDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return disaggregatedOf(dynamoDeployment, options);
}

/** The mocker test backend (annotation `airunway.ai/dynamo-test-backend: mocker`), no GPU. */
export function mockerDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return dynamoDeployment({
    ...options,
    annotations: { 'airunway.ai/dynamo-test-backend': 'mocker', ...options.annotations },
    spec: { resources: undefined, ...options.spec },
  });
}

/** AI Runway's e2e multi-node fixture: Qwen2.5-72B on two nodes of 2 GPUs, pre-existing cache PVC. */
export function multinodeDeployment(overrides: Record<string, unknown>): ResolvedModelDeployment {
  return dynamoDeployment({
    name: 'qwen25-72b-multinode',
    spec: {
      model: {
        id: 'Qwen/Qwen2.5-72B-Instruct',
        storage: { volumes: [{ name: 'model-cache', purpose: 'modelCache', claimName: 'shared-amlfs-storage', mountPath: '/model-cache', readOnly: false }] },
      },
      engine: { contextLength: 4096, args: { 'tensor-parallel-size': '2' } },
      resources: { gpu: { count: 2, type: 'nvidia.com/gpu' } },
      provider: { name: 'dynamo', overrides },
    },
  });
}
