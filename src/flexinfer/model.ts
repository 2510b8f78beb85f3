import { ApiObject, ApiObjectMetadata, Duration, Size } from 'cdk8s';
import type { ContainerResources, TaintEffect } from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import { FlexInferBackend } from './backend';
import { modelApiObject } from './model-object';
import { modelSpecErrors } from './model-rules';
import type { FlexInferModelSource } from './model-source';
import type { ModelResourcesJson, ModelSpecJson } from './model-spec-json';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError, invalid } from '../core/field-error';
import { goDurationOf } from '../core/go-duration';
import { dns1035LabelErrors } from '../core/kubernetes-names';

/**
 * GPU vendor a FlexInfer Model targets (`spec.gpu.vendor`).
 */
export enum FlexInferGpuVendor {
  /** Detect from the nodes; fails (`AmbiguousGPUVendor`) where both vendors are present. */
  AUTO = 'auto',
  /** NVIDIA GPUs (`nvidia.com/gpu`); never falls back to AMD. */
  NVIDIA = 'nvidia',
  /** AMD GPUs (`amd.com/gpu`); never falls back to NVIDIA. */
  AMD = 'amd',
  /** CPU only: no GPU is requested (llamacpp only). */
  CPU = 'cpu',
}

/**
 * Where FlexInfer keeps a Model's weights (`spec.cache.strategy`).
 */
export enum FlexInferCacheStrategy {
  /** A memory-backed emptyDir: fast reloads, costs RAM (FlexInfer's default for shared GPUs). */
  MEMORY = 'Memory',
  /** A PersistentVolumeClaim, prefetched by a Job (FlexInfer's default otherwise). */
  SHARED_PVC = 'SharedPVC',
  /** A node-local hostPath directory, e.g. on NVMe. */
  LOCAL = 'Local',
  /** No cache: a plain emptyDir, downloaded on every start (a `pvc://` source is mounted directly). */
  NONE = 'None',
}

/**
 * What FlexInfer does when the KV cache passes its high watermark (`spec.kvCache.pressurePolicy`).
 */
export enum FlexInferKvCachePressurePolicy {
  /** Record the pressure in status only. */
  OBSERVE = 'Observe',
  /** Restart the server with smaller limits (see `FlexInferKvCacheReconfigureStrategy`). */
  RECONFIGURE = 'Reconfigure',
  /** Scale the model to zero. */
  EVICT = 'Evict',
}

/**
 * Which vLLM limits the Reconfigure policy lowers (`spec.kvCache.reconfigureStrategy`).
 */
export enum FlexInferKvCacheReconfigureStrategy {
  /** `maxNumSeqs`. */
  REDUCE_SEQS = 'ReduceSeqs',
  /** `maxModelLen`. */
  REDUCE_MAX_LEN = 'ReduceMaxLen',
  /** Both. */
  BOTH = 'Both',
}

/**
 * How a toleration matches a taint's value.
 */
export enum FlexInferTolerationOperator {
  /** The taint's value must equal the toleration's. */
  EQUAL = 'Equal',
  /** Any value (and, without a key, any taint). */
  EXISTS = 'Exists',
}

/**
 * GPUs of a FlexInfer Model (`spec.gpu`).
 */
export interface FlexInferGpuOptions {
  /**
   * The GPU vendor.
   * @default FlexInferGpuVendor.AUTO
   */
  readonly vendor?: FlexInferGpuVendor;

  /**
   * GPUs per replica, 1 to 8 (not with `FlexInferGpuVendor.CPU`).
   * @default - one GPU (FlexInfer's controller assumes 1)
   */
  readonly count?: number;

  /**
   * Name of a shared GPU group: the Models of a group time-share one GPU, one of them loaded at a
   * time (not with `FlexInferGpuVendor.CPU`).
   * @default - exclusive GPU access
   */
  readonly shared?: string;

  /**
   * Priority within the shared group, 0 to 1000; a higher one preempts a lower one. Needs `shared`.
   * @default 100
   */
  readonly priority?: number;

  /**
   * Estimated VRAM use in MB, for bin-packing and keeping large models off small GPUs (not with
   * `FlexInferGpuVendor.CPU`).
   * @default - no estimate
   */
  readonly vramEstimateMb?: number;

  /**
   * Anti-thrashing window after a swap in the shared group. FlexInfer never goes below its own
   * 5 minutes, so only longer values change anything. Needs `shared`.
   * @default Duration.minutes(5)
   */
  readonly swapCooldown?: Duration;
}

/**
 * Scale-to-zero of a FlexInfer Model (`spec.serverless`).
 */
export interface FlexInferServerlessOptions {
  /**
   * Scale to `minReplicas` when idle and back up when `flexinfer-proxy` sees a request. When
   * false the Model runs exactly one replica.
   * @default true
   */
  readonly enabled?: boolean;

  /**
   * Replicas kept running when idle, 0 to 10 (0: true scale-to-zero).
   * @default 0
   */
  readonly minReplicas?: number;

  /**
   * Idle time before scaling down.
   * @default - 5 minutes for LLM backends, 10 for image generation
   */
  readonly idleTimeout?: Duration;

  /**
   * How long a request waits for activation before `flexinfer-proxy` answers 503.
   * @default Duration.seconds(60)
   */
  readonly coldStartTimeout?: Duration;
}

/**
 * Model weight caching (`spec.cache`).
 */
export interface FlexInferCacheOptions {
  /**
   * The strategy.
   * @default - Memory for a shared GPU group, else SharedPVC
   */
  readonly strategy?: FlexInferCacheStrategy;

  /**
   * The claim of the SharedPVC strategy.
   * @default - FlexInfer creates `<model>-cache`
   */
  readonly pvcName?: string;

  /**
   * Storage class of the claim FlexInfer creates (SharedPVC).
   * @default 'longhorn'
   */
  readonly storageClass?: string;

  /**
   * Size of the claim FlexInfer creates (SharedPVC).
   * @default Size.gibibytes(50)
   */
  readonly size?: Size;

  /**
   * Base directory on the node for the Local strategy (`<hostPath>/<namespace>/<model>`).
   * @default '/var/lib/flexinfer/models'
   */
  readonly hostPath?: string;
}

/**
 * LiteLLM discovery annotations on the Model's Service (`spec.litellm`).
 */
export interface FlexInferLiteLlmOptions {
  /**
   * Whether the annotations are written.
   * @default true
   */
  readonly enabled?: boolean;

  /**
   * Model name LiteLLM exposes.
   * @default - the Model name
   */
  readonly servedModelName?: string;

  /**
   * Further names that route to this model.
   * @default - none
   */
  readonly aliases?: string[];

  /**
   * Name for IDE/Copilot compatibility mode.
   * @default - none
   */
  readonly copilotAlias?: string;
}

/**
 * Capabilities announced to downstream consumers (`spec.capabilities`).
 */
export interface FlexInferCapabilities {
  /**
   * OpenAI-compatible tool calling.
   * @default - inferred from the backend (vllm, ollama; llamacpp with `jinja`)
   */
  readonly toolCalling?: boolean;

  /**
   * Image input.
   * @default - inferred (llamacpp with `mmproj`)
   */
  readonly vision?: boolean;

  /**
   * Image generation.
   * @default - inferred (diffusers, comfyui, vllm-omni)
   */
  readonly imageGeneration?: boolean;
}

/**
 * KV-cache pressure management (`spec.kvCache`, vLLM only).
 */
export interface FlexInferKvCacheOptions {
  /**
   * Reaction to pressure.
   * @default FlexInferKvCachePressurePolicy.OBSERVE
   */
  readonly pressurePolicy?: FlexInferKvCachePressurePolicy;

  /**
   * Utilization ratio (0–1] that counts as pressure.
   * @default 0.85
   */
  readonly highWatermark?: number;

  /**
   * Utilization ratio to get back under; below `highWatermark`.
   * @default 0.6
   */
  readonly lowWatermark?: number;

  /**
   * vLLM `--block-size`.
   * @default - vLLM's
   */
  readonly maxBlockSize?: number;

  /**
   * vLLM `--swap-space` in GiB.
   * @default - vLLM's
   */
  readonly swapSpaceGib?: number;

  /**
   * How long after a reconfiguration before the original settings are restored.
   * @default Duration.minutes(5)
   */
  readonly reconfigureCooldown?: Duration;

  /**
   * Which limits Reconfigure lowers.
   * @default FlexInferKvCacheReconfigureStrategy.REDUCE_SEQS
   */
  readonly reconfigureStrategy?: FlexInferKvCacheReconfigureStrategy;
}

/**
 * A toleration of the Model's pods (`spec.tolerations`). FlexInfer's controller at the pinned CRD
 * revision does not apply these to the serving pod yet; it tolerates `dedicated=gpu:NoSchedule`
 * for GPU pods by itself.
 */
export interface FlexInferToleration {
  /**
   * Taint key; empty with `EXISTS` tolerates every taint.
   * @default - every key
   */
  readonly key?: string;

  /**
   * How the value is matched (`operator`; named so because `operator` is reserved in C#).
   * @default FlexInferTolerationOperator.EQUAL
   */
  readonly matchOperator?: FlexInferTolerationOperator;

  /**
   * Taint value (not with `EXISTS`).
   * @default - none
   */
  readonly value?: string;

  /**
   * Taint effect.
   * @default - every effect
   */
  readonly effect?: TaintEffect;

  /**
   * How long a NoExecute taint is tolerated.
   * @default - forever
   */
  readonly tolerationSeconds?: Duration;
}

/**
 * Props of a `FlexInferModel`.
 */
export interface FlexInferModelProps {
  /**
   * Metadata. The name is also the name of the Deployment and Service FlexInfer creates, so it
   * must be a DNS-1035 label.
   * @default - a name generated by cdk8s from the construct path
   */
  readonly metadata?: ApiObjectMetadata;

  /** The inference backend. */
  readonly backend: FlexInferBackend;

  /** Where the weights come from. */
  readonly source: FlexInferModelSource;

  /**
   * Container image, over the backend's and the GPU profile's defaults. Recommended: several
   * built-in defaults point at a private registry.
   * @default - FlexInfer picks one for the backend and the detected GPU
   */
  readonly image?: string;

  /**
   * GPUs. Without it the Model runs CPU-only, which only llamacpp can.
   * @default - CPU only
   */
  readonly gpu?: FlexInferGpuOptions;

  /**
   * Scale-to-zero.
   * @default - FlexInfer's default: serverless, scaling to zero after the idle timeout
   */
  readonly serverless?: FlexInferServerlessOptions;

  /**
   * Weight caching.
   * @default - Memory for a shared GPU group, else a SharedPVC FlexInfer creates
   */
  readonly cache?: FlexInferCacheOptions;

  /**
   * Backend settings (`spec.config`), e.g. `{ maxModelLen: 32768 }` for vllm or
   * `{ ggufFile: 'model-Q4_K_M.gguf' }` for llamacpp. See also `addConfig()`.
   * @default - none
   */
  readonly config?: { [key: string]: any };

  /**
   * CPU, memory and ephemeral storage of the serving container. GPUs go through `gpu`.
   * @default - none
   */
  readonly resources?: ContainerResources;

  /**
   * Node labels the pods must match.
   * @default - FlexInfer picks GPU nodes itself
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Tolerations (see `FlexInferToleration` for what the controller applies).
   * @default - none
   */
  readonly tolerations?: FlexInferToleration[];

  /**
   * LiteLLM discovery annotations.
   * @default - none
   */
  readonly liteLlm?: FlexInferLiteLlmOptions;

  /**
   * Semantic labels for routing, at most 10 (e.g. `textgen`, `code`). See also `addServiceLabel()`.
   * @default - none
   */
  readonly serviceLabels?: string[];

  /**
   * Capabilities announced to consumers.
   * @default - inferred by FlexInfer
   */
  readonly capabilities?: FlexInferCapabilities;

  /**
   * KV-cache pressure management (vLLM).
   * @default - none
   */
  readonly kvCache?: FlexInferKvCacheOptions;
}

function goDuration(d: Duration | undefined): string | undefined {
  return d === undefined ? undefined : goDurationOf(d);
}

function resourcesJson(resources: ContainerResources | undefined): ModelResourcesJson | undefined {
  if (!resources) return undefined;
  const limits: Record<string, string> = {};
  const requests: Record<string, string> = {};
  if (resources.cpu?.request) requests.cpu = resources.cpu.request.amount;
  if (resources.cpu?.limit) limits.cpu = resources.cpu.limit.amount;
  if (resources.memory?.request) requests.memory = resources.memory.request.asString();
  if (resources.memory?.limit) limits.memory = resources.memory.limit.asString();
  if (resources.ephemeralStorage?.request) requests['ephemeral-storage'] = resources.ephemeralStorage.request.asString();
  if (resources.ephemeralStorage?.limit) limits['ephemeral-storage'] = resources.ephemeralStorage.limit.asString();
  const out = {
    ...(Object.keys(limits).length > 0 && { limits }),
    ...(Object.keys(requests).length > 0 && { requests }),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Drops undefined members so the Model carries only what was set. */
function compact<T extends object>(o: T): T | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length > 0 ? out : undefined;
}

const FLEXINFER_MODEL_BRAND = brandSymbol('FlexInferModel');

/**
 * A FlexInfer `Model` (`ai.flexinfer/v1alpha2`): one served model, from which FlexInfer's
 * controller creates a Deployment and a Service named after it, with optional GPU sharing,
 * scale-to-zero and LiteLLM discovery.
 *
 * The spec is rendered at synth, so `addConfig()` and `addServiceLabel()` still apply after
 * construction; the pinned CRD's rules (enums, bounds, its CEL validations) and the seed's
 * (source URIs, durations, which backends run on CPU) are checked then, each failure reported
 * with its field path.
 */
export class FlexInferModel extends Construct {
  /** True if `x` is a FlexInferModel (also one made by another copy of this library). */
  public static isFlexInferModel(x: any): x is FlexInferModel {
    return hasBrand(x, FLEXINFER_MODEL_BRAND);
  }

  /** The generated `Model` object (escape hatch: `addJsonPatch`). */
  public readonly apiObject: ApiObject;

  /** The inference backend. */
  public readonly backend: FlexInferBackend;

  /** Where the weights come from. */
  public readonly source: FlexInferModelSource;

  private readonly props: FlexInferModelProps;
  private readonly config: { [key: string]: any };
  private readonly serviceLabels: string[];

  public constructor(scope: Construct, id: string, props: FlexInferModelProps) {
    super(scope, id);
    addBrand(this, FLEXINFER_MODEL_BRAND);
    this.props = props;
    this.backend = props.backend;
    this.source = props.source;
    this.config = { ...(props.config ?? {}) };
    this.serviceLabels = [...(props.serviceLabels ?? [])];
    this.apiObject = modelApiObject(this, 'Resource', props.metadata, () => this._toSpecJson());
    this.node.addValidation({ validate: () => this.validateModel().map(formatFieldError) });
  }

  /** The Model's name: also the name of the Deployment and Service FlexInfer creates. */
  public get name(): string {
    return this.apiObject.name;
  }

  /**
   * The port of the Service FlexInfer creates (the backend's port).
   * @returns undefined for a backend this library does not know
   */
  public get port(): number | undefined {
    return this.backend.port;
  }

  /**
   * Sets one backend setting (`spec.config.<key>`), replacing an earlier value.
   * @param key e.g. `maxModelLen`
   * @param value a JSON value
   */
  public addConfig(key: string, value: any): void {
    this.config[key] = value;
  }

  /**
   * Adds a semantic routing label (`spec.serviceLabels`).
   */
  public addServiceLabel(label: string): void {
    this.serviceLabels.push(label);
  }

  /** The spec in the CRD's JSON shape. @internal */
  public _toSpecJson(): ModelSpecJson {
    const p = this.props;
    const gpu = p.gpu;
    const kv = p.kvCache;
    const spec: ModelSpecJson = {
      backend: p.backend.name,
      source: p.source.uri,
      image: p.image,
      gpu: gpu && (compact({
        vendor: gpu.vendor,
        count: gpu.count,
        shared: gpu.shared,
        priority: gpu.priority,
        vramEstimateMB: gpu.vramEstimateMb,
        swapCooldown: goDuration(gpu.swapCooldown),
      }) ?? {}),
      serverless: p.serverless && compact({
        enabled: p.serverless.enabled,
        minReplicas: p.serverless.minReplicas,
        idleTimeout: goDuration(p.serverless.idleTimeout),
        coldStartTimeout: goDuration(p.serverless.coldStartTimeout),
      }),
      cache: p.cache && compact({
        strategy: p.cache.strategy,
        pvcName: p.cache.pvcName,
        storageClass: p.cache.storageClass,
        size: p.cache.size?.asString(),
        hostPath: p.cache.hostPath,
      }),
      config: Object.keys(this.config).length > 0 ? { ...this.config } : undefined,
      resources: resourcesJson(p.resources),
      nodeSelector: p.nodeSelector && Object.keys(p.nodeSelector).length > 0 ? { ...p.nodeSelector } : undefined,
      tolerations: p.tolerations && p.tolerations.length > 0
        ? p.tolerations.map((t) => compact({
          key: t.key,
          operator: t.matchOperator,
          value: t.value,
          effect: t.effect,
          tolerationSeconds: t.tolerationSeconds?.toSeconds(),
        }) ?? {})
        : undefined,
      litellm: p.liteLlm && (compact({
        enabled: p.liteLlm.enabled,
        servedModelName: p.liteLlm.servedModelName,
        aliases: p.liteLlm.aliases && p.liteLlm.aliases.length > 0 ? [...p.liteLlm.aliases] : undefined,
        copilotAlias: p.liteLlm.copilotAlias,
      }) ?? {}),
      serviceLabels: this.serviceLabels.length > 0 ? [...this.serviceLabels] : undefined,
      capabilities: p.capabilities && compact({ ...p.capabilities }),
      kvCache: kv && compact({
        pressurePolicy: kv.pressurePolicy,
        highWatermark: kv.highWatermark === undefined ? undefined : String(kv.highWatermark),
        lowWatermark: kv.lowWatermark === undefined ? undefined : String(kv.lowWatermark),
        maxBlockSize: kv.maxBlockSize,
        swapSpace: kv.swapSpaceGib === undefined ? undefined : String(kv.swapSpaceGib),
        reconfigureCooldown: goDuration(kv.reconfigureCooldown),
        reconfigureStrategy: kv.reconfigureStrategy,
      }),
    };
    return compact(spec)!;
  }

  private validateModel(): FieldError[] {
    const errors = modelSpecErrors(this._toSpecJson());
    const nameProblems = dns1035LabelErrors(this.name);
    if (nameProblems.length > 0) {
      errors.unshift(invalid('metadata.name', this.name, `FlexInfer names the Model's Service after it, so it must be a DNS-1035 label: ${nameProblems.join('; ')}`));
    }
    return errors;
  }
}
