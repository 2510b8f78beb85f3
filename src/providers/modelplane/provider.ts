import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { modelplaneDeprecatedFlagWarnings } from './args';
import { modelplaneProviderConfig } from './config';
import { modelplaneRunsMultiNode } from './multi-node';
import { MODELPLANE_SGLANG_IMAGE, MODELPLANE_VLLM_IMAGE, ModelplaneSettings } from './settings';
import { modelplaneStatusReport } from './status';
import { MODELPLANE_DISPLAY_NAME, modelplaneWarnings, validateModelplane } from './validation';
import { DeploymentFeature } from '../../api/provider/deployment-feature';
import { InferenceProvider } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment } from '../../api/resolved-model-deployment';
import { FieldError, formatFieldError, invalid } from '../../core/field-error';
import { ModelplaneClusterToleration, clusterTolerationErrors } from '../../modelplane/cluster-toleration';
import { modelReplicaErrors } from '../../modelplane/deployment-rules';
import { MIN_MODEL_REPLICAS } from '../../modelplane/limits';

/** `apiVersion` of modelplane's user kinds. */
const MODELPLANE_API_VERSION = 'modelplane.ai/v1alpha1';

/**
 * Settings of the modelplane provider: what a fleet's deployments share and AI Runway's
 * ModelDeployment has no field for.
 */
export interface ModelplaneProviderProps {
  /**
   * ModelReplicas of every deployment (1 to 10): whole serving instances, each placed on one
   * InferenceCluster. A deployment's `scaling.replicas` are the engine copies inside each.
   * @default 1
   */
  readonly modelReplicas?: number;

  /**
   * Labels of the InferenceClusters deployments (and their ModelCaches) may use.
   * @default - every ready InferenceCluster
   */
  readonly clusterSelector?: { [key: string]: string };

  /**
   * Tolerations of InferenceCluster taints.
   * @default - none: tainted clusters are not used
   */
  readonly clusterTolerations?: ModelplaneClusterToleration[];

  /**
   * Image pull Secrets of every engine pod (names, in each workload cluster's namespace).
   * @default - none
   */
  readonly imagePullSecrets?: string[];

  /**
   * Image of vLLM engines when the deployment names none (`engine.image`).
   * @default 'vllm/vllm-openai:v0.33.0'
   */
  readonly vllmImage?: string;

  /**
   * Image of SGLang engines when the deployment names none.
   * @default 'lmsysorg/sglang:v0.5.23'
   */
  readonly sglangImage?: string;
}

/** Problems with the props, at `ModelplaneProvider.<prop>`. */
function propErrors(props: ModelplaneProviderProps): FieldError[] {
  const errors: FieldError[] = [];
  const at = (prop: string) => `ModelplaneProvider.${prop}`;
  if (props.modelReplicas !== undefined) errors.push(...modelReplicaErrors(props.modelReplicas, at('modelReplicas')));
  errors.push(...clusterTolerationErrors(props.clusterTolerations ?? [], at('clusterTolerations')));
  (props.imagePullSecrets ?? []).forEach((name, i) => {
    if (name === '') errors.push(invalid(`${at('imagePullSecrets')}[${i}]`, name, 'must name a Secret'));
  });
  for (const prop of ['vllmImage', 'sglangImage'] as const) {
    if (props[prop] === '') errors.push(invalid(at(prop), '', 'must name an image, or be left out'));
  }
  return errors;
}

/**
 * modelplane (`modelplane`, explicit selection only): one `modelplane.ai/v1alpha1`
 * ModelDeployment per deployment — a Standalone engine (a Leader and Workers for multi-node
 * replicas), or Prefill and Decode engines — placed by
 * DRA device requests onto a fleet of InferenceClusters, plus a ModelCache when the deployment
 * asks for a model cache. modelplane composes the workloads on the workload clusters itself.
 */
export class ModelplaneProvider extends InferenceProvider {
  private readonly settings: ModelplaneSettings;

  public constructor(props: ModelplaneProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(modelplaneProviderConfig()), displayName: MODELPLANE_DISPLAY_NAME });
    const errors = propErrors(props);
    if (errors.length > 0) throw new Error(`invalid ModelplaneProvider props:\n${errors.map(formatFieldError).join('\n')}`);
    this.settings = {
      modelReplicas: props.modelReplicas ?? MIN_MODEL_REPLICAS,
      clusterSelector: { ...props.clusterSelector },
      clusterTolerations: [...(props.clusterTolerations ?? [])],
      imagePullSecrets: [...(props.imagePullSecrets ?? [])],
      vllmImage: props.vllmImage ?? MODELPLANE_VLLM_IMAGE,
      sglangImage: props.sglangImage ?? MODELPLANE_SGLANG_IMAGE,
    };
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateModelplane(fromResolvedDeployment(deployment));
  }

  /** GPUs the engine layout leaves idle, cache volume settings modelplane ignores, device classes it takes from the InferenceClass. */
  public warnings(deployment: ResolvedDeployment): string[] {
    const md = fromResolvedDeployment(deployment);
    return [...modelplaneWarnings(md), ...modelplaneDeprecatedFlagWarnings(md.spec)];
  }

  /**
   * True: modelplane places the replicas on the clusters of its fleet and composes their claims
   * there, from the device requests every engine member carries in `nodeSelector.devices` (their
   * CEL selectors verbatim). No ResourceClaimTemplate of ours, no check against this cluster's pools.
   */
  public schedulesDevicesItself(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  /**
   * Multi-node replicas with vLLM (`modelplaneRunsMultiNode`): an engine of a Leader and Workers,
   * which modelplane composes as a LeaderWorkerSet. Nothing else beyond AI Runway's API: engine
   * copies are fixed (no autoscaling, no zero), and its pod template has no LoRA adapters.
   */
  public supportsFeature(feature: DeploymentFeature, deployment: ResolvedDeployment): boolean {
    switch (feature) {
      case DeploymentFeature.MULTI_NODE:
        return modelplaneRunsMultiNode(deployment.engineType);
      default:
        return false;
    }
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings the generated bindings, which the controller
    // (validate and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateModelplane } = require('./translator') as typeof import('./translator');
    return translateModelplane(scope, fromResolvedDeployment(deployment), this.settings);
  }

  public emittedKinds(): UpstreamKind[] {
    return [
      { apiVersion: MODELPLANE_API_VERSION, kind: 'ModelDeployment', resource: 'modeldeployments' },
      { apiVersion: MODELPLANE_API_VERSION, kind: 'ModelCache', resource: 'modelcaches' },
    ];
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: MODELPLANE_API_VERSION, kind: 'ModelDeployment', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return modelplaneStatusReport(upstream);
  }
}
