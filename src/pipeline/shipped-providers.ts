import type { InferenceProvider } from '../api/provider/inference-provider';
import { DynamoProvider } from '../providers/dynamo';
import { FlexInferProvider } from '../providers/flexinfer';
import { KaitoProvider } from '../providers/kaito';
import { KthenaProvider } from '../providers/kthena';
import { KubeRayProvider } from '../providers/kuberay';
import { LlmdProvider } from '../providers/llmd';
import { ModelplaneProvider } from '../providers/modelplane';
import { DirectVllmProvider } from '../providers/vllm';
import { ProviderCatalog, providerCatalog } from '../selection/provider-catalog';

/**
 * The providers we ship, with their default settings, in name order: what a `ProviderRegistry`
 * starts with. AI Runway's five and the targets of the other seed systems (FlexInfer, Kthena, modelplane),
 * which are selected only when a deployment names them. Adding a provider to the product is one
 * line here.
 */
export function shippedProviders(): InferenceProvider[] {
  return [
    new DynamoProvider(),
    new FlexInferProvider(),
    new KaitoProvider(),
    new KthenaProvider(),
    new KubeRayProvider(),
    new LlmdProvider(),
    new ModelplaneProvider(),
    new DirectVllmProvider(),
  ];
}

let defaultCatalog: ProviderCatalog | undefined;

/** The shipped providers with default settings: what a deployment without a registry in scope uses. */
export function defaultProviderCatalog(): ProviderCatalog {
  defaultCatalog ??= providerCatalog(shippedProviders().map((provider) => ({ config: provider.config._toEntry(), provider })));
  return defaultCatalog;
}
