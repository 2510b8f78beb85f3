import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { DEVICES_ANNOTATION } from '../../../src/provider-kit/device-annotation';
import { ModelplaneProvider, ModelplaneProviderProps } from '../../../src/providers/modelplane';
import { admittedDeployment, disaggregatedOf, FixtureOptions } from '../../support/resolved-deployment';
import { translatorHarness } from '../../support/translator-harness';

export type { FixtureOptions };

/**
 * A ModelDeployment as it reaches the modelplane translator after admission defaults and
 * explicit selection: Qwen3-0.6B from Hugging Face, engine vllm (prefix caching on), aggregated,
 * one replica, one nvidia.com/gpu, provider modelplane.
 */
export function modelplaneDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return admittedDeployment('modelplane', options);
}

/**
 * Disaggregated: 1 prefill replica × 1 GPU, 2 decode replicas × 2 GPUs, without the memory
 * requests of the shared fixture (modelplane's pod template has no container resources).
 */
export function prefillDecodeDeployment(options: FixtureOptions = {}): ResolvedModelDeployment {
  return disaggregatedOf(modelplaneDeployment, options, {
    prefill: { replicas: 1, gpu: { count: 1, type: 'nvidia.com/gpu' } },
    decode: { replicas: 2, gpu: { count: 2, type: 'nvidia.com/gpu' } },
  });
}

/** `inference.cdk8s.io/devices` with the given value (YAML or JSON). */
export function devicesAnnotation(value: unknown): Record<string, string> {
  return { [DEVICES_ANNOTATION]: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** The harness over a provider with `props`. */
export function modelplaneHarness(props: ModelplaneProviderProps = {}) {
  return translatorHarness(new ModelplaneProvider(props), modelplaneDeployment);
}

/** The one modelplane ModelDeployment of the manifests. */
export function xrOf(manifests: any[]): any {
  const found = manifests.filter((m) => m.apiVersion === 'modelplane.ai/v1alpha1' && m.kind === 'ModelDeployment');
  if (found.length !== 1) throw new Error(`expected one modelplane ModelDeployment, got ${found.length}`);
  return found[0];
}

/** The engine container of engine `index` of the manifests' modelplane ModelDeployment. */
export function engineContainerOf(manifests: any[], index = 0): any {
  return xrOf(manifests).spec.template.spec.engines[index].members[0].template.spec.containers[0];
}
