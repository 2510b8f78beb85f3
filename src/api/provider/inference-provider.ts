import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { DeploymentFeature } from './deployment-feature';
import { EngineType } from '../engine';
import { InferenceProviderConfig } from './inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from './provider-status';
import { addBrand, brandSymbol, hasBrand } from '../../core/construct-brand';
import type { FieldError } from '../../core/field-error';
import type { EndpointPicker } from '../gateway/endpoint-picker-choice';
import type { DeploymentDescription, ResolvedDeployment } from '../resolved-deployment';

const PROVIDER_SYMBOL = brandSymbol('InferenceProvider');

/**
 * The pods and port a controller-managed InferencePool selects: the model server pods' labels
 * and the port serving the OpenAI-compatible API.
 */
export interface InferencePoolTarget {
  /** Labels of the model server pods (the pool's selector). */
  readonly selector: { [key: string]: string };
  /** Port of the model server in those pods. */
  readonly targetPort: number;
}

/**
 * A backend that simulates the model instead of running it on accelerators, such as Dynamo's
 * mocker. Admission waives GPU requirements and capability checks for it, and it is never routed
 * through the inference gateway.
 */
export interface SimulatedBackend {
  /** Name of the backend in messages, e.g. `mocker`. */
  readonly name: string;
  /** The engines it can simulate; any other is an admission error. */
  readonly engines: EngineType[];
}

/**
 * The workload an autoscaler scales for a deployment: an object in the deployment's namespace
 * with a `scale` subresource (a Deployment, a LeaderWorkerSet, ...).
 */
export interface ScaleTargetRef {
  /** API version of the workload, e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** Kind of the workload, e.g. `Deployment`. */
  readonly kind: string;
  /** Name of the workload. */
  readonly name: string;
}

/**
 * Props of an `InferenceProvider`.
 */
export interface InferenceProviderProps {
  /** Name, capabilities, selection rules, gateway capabilities and readiness of the provider. */
  readonly config: InferenceProviderConfig;

  /**
   * Name of the provider in messages, e.g. `vLLM`.
   * @default - the config's name
   */
  readonly displayName?: string;
}

/**
 * A provider: everything cdk8s-inference knows about one way of running a model on Kubernetes —
 * its InferenceProviderConfig (what engine and provider selection consider), its own validation
 * of a deployment, its translation into upstream objects, its status mapping, and the facts the
 * inference gateway needs. Register it with a `ProviderRegistry`; shipped providers and yours are
 * the same kind of object.
 *
 * The pipeline calls `validate` on a deployment that AI Runway's admission accepted and that
 * selected this provider, and `translate` only when `validate` returned no errors, so a
 * translation never re-checks its input.
 */
export abstract class InferenceProvider {
  /**
   * True if `x` is an InferenceProvider (works across copies of this module).
   */
  public static isInferenceProvider(x: any): x is InferenceProvider {
    return hasBrand(x, PROVIDER_SYMBOL);
  }

  /** Provider name, as used in `spec.provider.name`. */
  public readonly name: string;

  /** Name of the provider in messages. */
  public readonly displayName: string;

  /** Capabilities, selection rules and readiness that selection considers. */
  public readonly config: InferenceProviderConfig;

  public constructor(props: InferenceProviderProps) {
    addBrand(this, PROVIDER_SYMBOL);
    this.config = props.config;
    this.name = props.config.name;
    this.displayName = props.displayName ?? props.config.name;
  }

  /**
   * The provider's own checks of a deployment that selected it (its controller's compatibility
   * check and anything its translation could not express), each with the field path.
   * @returns the errors; empty when the deployment can be translated
   */
  public validate(_deployment: ResolvedDeployment): FieldError[] {
    return [];
  }

  /**
   * Warnings about a deployment `validate` accepted: legal but probably unintended, such as GPUs
   * its engine layout leaves idle. Recorded on the ModelDeployment (`Warnings`) and printed by the
   * CLI's `synth` and `explain`.
   * @returns the warning texts; empty when there is nothing to say
   */
  public warnings(_deployment: ResolvedDeployment): string[] {
    return [];
  }

  /**
   * Whether the pods this provider renders for the deployment carry its DRA device claims
   * (annotation `inference.cdk8s.io/devices`): each claiming pod lists the claim template in
   * `spec.resourceClaims` and its serving container consumes it in `resources.claims`, without a
   * GPU extended resource (`podDeviceClaims` gives both). The ResourceClaimTemplates themselves
   * are synthesized beside the provider's objects. A provider that answers false (the default)
   * fails such a deployment with a field error naming it, instead of dropping the claims.
   * @returns true when `translate` wires the claims into every claiming pod
   */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return false;
  }

  /**
   * Whether the provider's target places the deployment's pods and claims their devices itself,
   * on nodes this build does not describe (modelplane schedules replicas onto the clusters of its
   * fleet and composes their ResourceClaims there). The pipeline then writes no
   * ResourceClaimTemplate for the device requests — the provider passes them to its target — and
   * does not check the deployment against the node pools declared in the `ProviderRegistry`.
   * @returns true when the target, not the cluster the objects are applied to, runs the pods
   */
  public schedulesDevicesItself(_deployment: ResolvedDeployment): boolean {
    return false;
  }

  /**
   * Whether the provider carries `feature` for this deployment. A deployment that asks for a
   * feature its provider lacks fails the synth, naming the registered providers that have it.
   * A provider answers true for `AUTOSCALING` when it scales the deployment itself (its target's
   * own autoscaler) or names the workload KEDA or an HPA scales (`scaleTarget`).
   * @default - false for every feature
   */
  public supportsFeature(_feature: DeploymentFeature, _deployment: ResolvedDeployment): boolean {
    return false;
  }

  /**
   * The workload a KEDA ScaledObject or HorizontalPodAutoscaler synthesized beside the provider's
   * objects scales, when the deployment asks for autoscaling. Such a workload's own replica count
   * must be left unset by `translate` (the autoscaler owns it; a GitOps tool would otherwise reset it).
   * @returns undefined when the provider has no such workload (it scales with its target's own
   * autoscaler, or not at all)
   */
  public scaleTarget(_deployment: ResolvedDeployment): ScaleTargetRef | undefined {
    return undefined;
  }

  /**
   * Creates the upstream objects of a validated deployment as children of `scope` and returns
   * them in output order. Use stable construct ids: they are part of the output's identity.
   */
  public abstract translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[];

  /**
   * Every kind of object `translate` can create. The controller construct grants read access to
   * exactly these (and nothing else of the provider's) and the controller watches them.
   * @default - none: the controller can read none of the provider's objects
   */
  public emittedKinds(): UpstreamKind[] {
    return [];
  }

  /**
   * Annotations the ModelDeployment record carries for this deployment, so that the in-cluster
   * controller — which runs the providers with their default settings — reads the same objects
   * as this provider's settings produced (e.g. Dynamo's API version).
   * @default - none
   */
  public recordAnnotations(_deployment: ResolvedDeployment): { [key: string]: string } {
    return {};
  }

  /**
   * The upstream object whose status the controller maps (`mapStatus`) for this deployment.
   * @returns undefined when the provider has no status mapping
   */
  public statusSource(_deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return undefined;
  }

  /**
   * Maps the observed upstream object (JSON, as the API server returns it) to the deployment's
   * status. Called only for providers whose `statusSource` names an object.
   * @param _upstream the object `statusSource` names
   */
  public mapStatus(_upstream: any): ProviderStatusReport {
    throw new Error(`provider ${this.name} has no status mapping`);
  }

  /**
   * Upstream objects besides `statusSource` whose status is part of the deployment's (llm-d's
   * prefill Deployment beside its decode Deployment). The controller waits until each exists and
   * passes them, in this order, to `mapStatuses`.
   * @default - none
   */
  public additionalStatusSources(_deployment: ResolvedDeployment): UpstreamObjectRef[] {
    return [];
  }

  /**
   * Maps the status source and the additional ones to the deployment's status. Called instead of
   * `mapStatus` by the controller.
   * @param upstream the object `statusSource` names
   * @param additional the objects `additionalStatusSources` names, in its order
   * @default - `mapStatus(upstream)`
   */
  public mapStatuses(upstream: any, _additional: any[]): ProviderStatusReport {
    return this.mapStatus(upstream);
  }

  /**
   * The pods and port a controller-managed InferencePool selects for this deployment.
   * @returns undefined when the provider has no model server pods of its own to pool (it manages
   * its own InferencePool, or cannot be routed)
   */
  public inferencePoolTarget(_deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    return undefined;
  }

  /**
   * The endpoint picker's plugin configuration (EndpointPickerConfig YAML) for this deployment.
   * @param _deployment the deployment being routed
   * @param configured the configuration of the provider's gateway capability, if any
   * @param _endpointPicker the picker generation the deployment routes with (its group of configuration kinds)
   * @returns the configuration to use; undefined for the default one
   */
  public endpointPickerConfig(_deployment: ResolvedDeployment, configured?: string, _endpointPicker?: EndpointPicker): string | undefined {
    return configured;
  }

  /**
   * Whether this deployment runs on a simulated backend (see `SimulatedBackend`). Asked during
   * admission, only when the deployment names this provider explicitly.
   * @returns undefined for a real backend
   */
  public simulatedBackend(_deployment: DeploymentDescription): SimulatedBackend | undefined {
    return undefined;
  }
}
