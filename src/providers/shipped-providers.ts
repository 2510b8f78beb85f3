import { DynamoProvider } from './dynamo';
import { FlexInferProvider } from './flexinfer';
import { KaitoProvider } from './kaito';
import { KthenaProvider } from './kthena';
import { KubeRayProvider } from './kuberay';
import { LlmdProvider } from './llmd';
import { ModelplaneProvider } from './modelplane';
import { DirectVllmProvider } from './vllm';
import type { InferenceProvider } from '../api/inference-provider';
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
