import { DynamoProvider } from './dynamo';
import { KaitoProvider } from './kaito';
import { KubeRayProvider } from './kuberay';
import { LlmdProvider } from './llmd';
import { DirectVllmProvider } from './vllm';
import type { InferenceProvider } from '../api/inference-provider';
import { ProviderCatalog, providerCatalog } from '../selection/provider-catalog';

/**
 * The providers AI Runway ships, with their default settings, in name order: what a
 * `ProviderRegistry` starts with. Adding a provider to the product is one line here.
 */
export function shippedProviders(): InferenceProvider[] {
  return [new DynamoProvider(), new KaitoProvider(), new KubeRayProvider(), new LlmdProvider(), new DirectVllmProvider()];
}

let defaultCatalog: ProviderCatalog | undefined;

/** The shipped providers with default settings: what a deployment without a registry in scope uses. */
export function defaultProviderCatalog(): ProviderCatalog {
  defaultCatalog ??= providerCatalog(shippedProviders().map((provider) => ({ config: provider.config._toEntry(), provider })));
  return defaultCatalog;
}
