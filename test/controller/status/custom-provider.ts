/**
 * A provider of the tests' own (`custom`), whose status hooks each test chooses: what a user's
 * provider, written in any jsii language, may do to the controller.
 */
import { ApiObject } from 'cdk8s';
import { EngineType, InferenceProvider, InferenceProviderConfig, ProviderStatusReport, ResolvedDeployment, UpstreamObjectRef } from '../../../src';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { shippedProviders } from '../../../src/pipeline/shipped-providers';
import { ProviderCatalog, providerCatalog } from '../../../src/selection/provider-catalog';
import { vllmDeployment } from '../../providers/vllm/fixtures';

export interface CustomHooks {
  readonly statusSource?: (d: ResolvedDeployment) => UpstreamObjectRef | undefined;
  readonly mapStatus?: (upstream: any) => ProviderStatusReport;
  readonly simulated?: boolean;
}

/** A vLLM provider named `custom` with the given status hooks (none: no status mapping). */
export class CustomProvider extends InferenceProvider {
  public constructor(private readonly hooks: CustomHooks = {}) {
    super({ config: new InferenceProviderConfig({ name: 'custom', engines: [{ engineType: EngineType.VLLM, gpuSupport: true }] }) });
  }

  public translate(): ApiObject[] {
    return [];
  }

  public statusSource(d: ResolvedDeployment): UpstreamObjectRef | undefined {
    return this.hooks.statusSource ? this.hooks.statusSource(d) : super.statusSource(d);
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return this.hooks.mapStatus ? this.hooks.mapStatus(upstream) : super.mapStatus(upstream);
  }

  public simulatedBackend(): any {
    return this.hooks.simulated ? { name: 'fake', engines: [EngineType.VLLM] } : undefined;
  }
}

/** The shipped providers plus `provider`. */
export function catalogWith(provider: InferenceProvider): ProviderCatalog {
  return providerCatalog([...shippedProviders(), provider].map((p) => ({ config: p.config._toEntry(), provider: p })));
}

/** The Direct vLLM fixture, naming provider `custom`. */
export function customDeployment(spec: Record<string, unknown> = {}): ResolvedModelDeployment {
  return vllmDeployment({ spec: { provider: { name: 'custom' }, ...spec } });
}

/** The object `custom` observes: a ConfigMap named after the deployment. */
export const SOURCE = (d: ResolvedDeployment): UpstreamObjectRef => ({ apiVersion: 'v1', kind: 'ConfigMap', name: d.name });

/** A ConfigMap in `ml` whose data says the phase. */
export function sourceObject(name: string, data: Record<string, string>): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ml', generation: 1 }, data };
}

/** A well-formed report of `phase`. */
export function report(phase: 'Pending' | 'Deploying' | 'Running' | 'Failed', overrides: Partial<Record<keyof ProviderStatusReport, unknown>> = {}): any {
  const ready = phase === 'Running'
    ? { type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' }
    : { type: 'Ready', status: 'False', reason: phase === 'Failed' ? 'DeploymentFailed' : 'DeploymentInProgress', message: phase === 'Failed' ? 'broken' : 'Deployment is in progress' };
  return { phase, message: `custom is ${phase}`, replicas: { desired: 1, ready: phase === 'Running' ? 1 : 0, available: phase === 'Running' ? 1 : 0 }, endpoint: { service: 'svc', port: 8080 }, ready, ...overrides };
}
