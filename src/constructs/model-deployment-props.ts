import { ProviderRegistry } from './provider-registry';
import { EngineOptions } from '../api/engine';
import { GatewayOptions, GatewayRef, InferencePoolApiVersion } from '../api/gateway/gateway';
import { LoraOptions } from '../api/lora/lora';
import { ModelOptions } from '../api/model';
import { MultiNodeOptions } from '../api/multi-node/multi-node';
import { PodSecurityLevel } from '../api/pod-security-level';
import { ProviderOptions } from '../api/provider/provider-options';
import { ResourceOptions } from '../api/resources';
import { ScalingOptions } from '../api/scaling';
import { ServingMode } from '../api/serving';
import { StorageVolume } from '../api/storage';
import { k8s } from '../core/kube-api';

/**
 * Metadata of a ModelDeployment.
 */
export interface ModelDeploymentMetadata {
  /**
   * Name of the deployment; the upstream objects are named after it (`<name>`,
   * `<name>-<volume>`, `<name>-epp`, ...). A lowercase RFC 1123 label of at most 63 characters.
   * @default - derived from the construct id
   */
  readonly name?: string;

  /**
   * Namespace of the deployment and of every object synthesized for it.
   * @default - the chart's namespace
   */
  readonly namespace?: string;

  /**
   * Labels of the ModelDeployment record (use `podLabels` for the model server pods).
   * @default - none
   */
  readonly labels?: { [key: string]: string };

  /**
   * Annotations of the ModelDeployment record (use `podAnnotations` for the model server pods).
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/**
 * Options shared by `ModelDeployment` and `ModelDeployment.fromManifest`.
 */
export interface ModelDeploymentOptions {
  /**
   * Providers to select from.
   * @default - the nearest `ProviderRegistry` in scope (`ProviderRegistry.tryOf`), else the
   * shipped providers
   */
  readonly providerRegistry?: ProviderRegistry;

  /**
   * Also synthesize the `airunway.ai/v1alpha1` ModelDeployment record, whose status the
   * in-cluster controller keeps current. The record needs the ModelDeployment CRD in the
   * cluster (the `ModelDeploymentController` construct installs it, as AI Runway does) and is
   * inert without a controller; turn it off for clusters without that CRD. It is labelled
   * `inference.cdk8s.io/rendered-by: cdk8s-inference` (what our controller reconciles) and
   * annotated `airunway.ai/reconcile-paused: "true"` (AI Runway's controllers leave it alone).
   * @default true
   */
  readonly emitRecord?: boolean;
}

/**
 * Options of `ModelDeployment.fromManifest`: where routes attach, which an AI Runway manifest
 * does not say (AI Runway's controller takes it from its flags).
 */
export interface ModelDeploymentManifestOptions extends ModelDeploymentOptions {
  /**
   * The Gateway the deployment's HTTPRoute attaches to.
   * @default - the ProviderRegistry's `gateway`
   */
  readonly gatewayRef?: GatewayRef;

  /**
   * API version of the synthesized InferencePool.
   * @default - the ProviderRegistry's `inferencePoolApiVersion`
   */
  readonly inferencePoolApiVersion?: InferencePoolApiVersion;
}

/**
 * Props of a `ModelDeployment`: the whole `airunway.ai/v1alpha1` ModelDeployment spec.
 */
export interface ModelDeploymentProps extends ModelDeploymentOptions {
  /**
   * Name, namespace, labels and annotations of the deployment.
   * @default - name derived from the construct id; namespace of the chart
   */
  readonly metadata?: ModelDeploymentMetadata;

  /** The model to serve. */
  readonly model: ModelOptions;

  /**
   * Engine settings.
   * @default - engine auto-selected, engine defaults
   */
  readonly engine?: EngineOptions;

  /**
   * Provider choice and overrides.
   * @default - provider auto-selected
   */
  readonly provider?: ProviderOptions;

  /**
   * Serving mode.
   * @default ServingMode.AGGREGATED
   */
  readonly servingMode?: ServingMode;

  /**
   * Replicas.
   * @default - one replica in aggregated mode
   */
  readonly scaling?: ScalingOptions;

  /**
   * Compute resources per replica (aggregated mode).
   * @default - see `ResourceOptions.gpu`
   */
  readonly resources?: ResourceOptions;

  /**
   * Multi-node replicas: a replica whose GPU count (`resources.gpu.count`, or a component's in
   * disaggregated mode) exceeds `gpusPerNode` runs as a group of pods on several nodes, one engine
   * over all their GPUs (annotation `inference.cdk8s.io/multi-node`). Direct vLLM and llm-d render
   * a LeaderWorkerSet, which needs the LeaderWorkerSet controller in the cluster.
   * @default - every replica is one pod on one node
   */
  readonly multiNode?: MultiNodeOptions;

  /**
   * Volumes: managed ones (with `size`) get a synthesized PersistentVolumeClaim. At most 8.
   * @default - none
   */
  readonly storage?: StorageVolume[];

  /**
   * Legacy image override.
   * @default - none
   * @deprecated use `engine.image`
   */
  readonly image?: string;

  /**
   * Environment variables of the model server.
   * @default - none
   */
  readonly env?: k8s.EnvVar[];

  /**
   * Labels added to the model server pods (selector labels cannot be overridden).
   * @default - none
   */
  readonly podLabels?: { [key: string]: string };

  /**
   * Annotations added to the model server pods.
   * @default - none
   */
  readonly podAnnotations?: { [key: string]: string };

  /**
   * Name of a Secret in the deployment's namespace whose `HF_TOKEN` key authenticates to
   * HuggingFace.
   * @default - no token
   */
  readonly huggingFaceTokenSecret?: string;

  /**
   * Gateway API Inference Extension routing.
   * @default - routing enabled when the cluster supports it
   */
  readonly gateway?: GatewayOptions;

  /**
   * Node selector of the model server pods.
   * @default - none
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Tolerations of the model server pods.
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];

  /**
   * LoRA adapters served beside the base model, each under its own model name (annotation
   * `inference.cdk8s.io/lora`).
   * @default - none
   */
  readonly lora?: LoraOptions;

  /**
   * Pod Security Standard the model-server pods are built to pass (annotation
   * `inference.cdk8s.io/pod-security`). `RESTRICTED` runs the engine as a non-root user with
   * writable emptyDirs for its home, caches and `/tmp`; the README's "Pod security" lists what
   * each provider sets and which images tolerate it.
   * @default - the registry's `podSecurity`, else PodSecurityLevel.BASELINE
   */
  readonly podSecurity?: PodSecurityLevel;
}
