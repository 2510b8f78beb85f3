import type { k8s } from 'cdk8s-plus-34';
import { DisaggregationRole, dynamoEngineArgs, mockerArgs, MOCKER_COMMAND, workerCommand } from './args';
import { DynamoImages, dynamoWorkerImage, hasSemverTag } from './images';
import { dynamoMultiNode } from './multi-node';
import type { DynamoTypedOverrides } from './overrides';
import { formatRuntimeVersion, isV1Beta1Runtime, RuntimeVersion } from './runtime-version';
import {
  DECODE_WORKER_SERVICE,
  EPP_SERVICE,
  FRONTEND_SERVICE,
  gatewayEnabled,
  isMocker,
  PREFILL_WORKER_SERVICE,
  WORKER_SERVICE,
} from './services';
import { dynamoDerivedTensorParallel } from './validation';
import { PodSecurityLevel, podSecurityLevelOf } from '../../api/pod-security-level';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { DEFAULT_GPU_RESOURCE } from '../../core/defaults';
import { gpuTypeOf } from '../../core/gpu-type';
import { LABEL_ENGINE_TYPE, LABEL_MANAGED_BY, LABEL_MODEL_DEPLOYMENT, MANAGED_BY_VALUE } from '../../core/labels';
import { resolvedClaimName } from '../../core/model-deployment-object';
import { nixlSideChannelHostEnv } from '../../provider-kit/engine-flags';
import { HF_HOME_ENV, toKubeEnvVar } from '../../provider-kit/env';
import { PodGpus, podTolerations } from '../../provider-kit/gpu-tolerations';
import type { MultiNodeLayout, ServingComponent } from '../../provider-kit/multi-node-layout';
import { PodDeviceClaims, podDeviceClaims } from '../../provider-kit/pod-claims';
import { nodeSelectorOf } from '../../provider-kit/pod-template';
import { firstModelCacheVolume, storageVolumesOf, volumeMountPath } from '../../storage/volume-mounts';

/*
 * The DynamoGraphDeployment as a version-neutral plan: what each service runs and needs. The
 * v1alpha1 and v1beta1 renderers turn the same plan into their own shape, so both versions carry
 * exactly the same deployment.
 */

/** Label with the deployment's model id, sanitized into a label value. */
export const LABEL_MODEL_ID = 'airunway.ai/model-id';

/** Container name of the frontend sidecar in a v1beta1 pod template (the name Dynamo's conversion uses). */
export const FRONTEND_SIDECAR_CONTAINER = 'sidecar-frontend';

/** Pod label the EPP's filters select workers by. */
export const SUB_COMPONENT_TYPE_LABEL = 'nvidia.com/dynamo-sub-component-type';
/** Router mode of the `Frontend` service unless `routerMode` is overridden. */
export const DEFAULT_ROUTER_MODE = 'round-robin';
/** CPU and memory requests of the `Frontend` service. */
export const FRONTEND_REQUESTS = { cpu: '2', memory: '4Gi' } as const;
/** CPU and memory of every mocker pod (requests, and limits for workers). */
export const MOCKER_RESOURCES = { cpu: '100m', memory: '256Mi' } as const;

/*
 * Quirk decisions (AI Runway providers spec §8), each tested:
 *
 * - Worker service key `VllmWorker` for every engine: kept. Overrides address services by key
 *   (multi-node is `spec.services.VllmWorker.multinode`), so renaming would silently turn a
 *   migrated override into a new, image-less service; overrides naming a service we do not
 *   generate are rejected instead.
 * - `frontendSidecar` image always the vLLM runtime: fixed, the sidecar runs the worker image, so
 *   frontend and worker are the same Dynamo release (a custom image, SGLang or TensorRT-LLM would
 *   otherwise pair with a vLLM 1.1.1 frontend and pull a second runtime image onto the node).
 * - `Frontend` service uses the worker image (not dynamo-frontend): kept, for the same reason.
 * - Typed overrides (`routerMode`, `frontend`, `epp`) leaking into the DGD root: fixed, they are
 *   settings and are not merged (the API server dropped them anyway).
 * - `spec.env` dropped: fixed, it becomes the graph-wide env of the DGD (`spec.envs` /
 *   `spec.env`), which Dynamo applies to every service; a user `HF_HOME` still replaces ours.
 */

/** Requests or limits of a Dynamo component. */
export interface DynamoResourceList {
  readonly gpu?: number;
  /**
   * The extended resource the `gpu` count is requested under; unset means `nvidia.com/gpu`,
   * Dynamo's default (v1alpha1 then writes no `gpuType`, so default output stays AI Runway's).
   */
  readonly gpuType?: string;
  readonly cpu?: string;
  readonly memory?: string;
}

/** Resources of a Dynamo component (empty lists are not rendered). */
export interface DynamoResources {
  readonly limits: DynamoResourceList;
  readonly requests: DynamoResourceList;
}

/** A claim mounted into a worker's main container. */
export interface DynamoVolumeMount {
  readonly claimName: string;
  readonly mountPath?: string;
  readonly readOnly: boolean;
  /** Dynamo's compilation cache: it points the backend's cache variables at this mount. */
  readonly compilationCache: boolean;
}

/** The frontend sidecar of a worker (gateway on). */
export interface DynamoFrontendSidecar {
  readonly image: string;
  readonly args: readonly string[];
  readonly envFromSecret?: string;
}

/** Labels and annotations for a component's pods. */
export interface DynamoPodMetadata {
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/** Roles of Dynamo components (v1beta1 `type`; v1alpha1 `componentType` + `subComponentType`). */
export type DynamoComponentRole = 'frontend' | 'epp' | 'worker' | 'prefill' | 'decode';

/** One service of the graph. */
export interface DynamoComponent {
  /** Service key (v1alpha1) and component name (v1beta1). */
  readonly name: string;
  readonly role: DynamoComponentRole;
  readonly replicas: number;
  readonly image: string;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env: readonly k8s.EnvVar[];
  readonly envFromSecret?: string;
  readonly resources?: DynamoResources;
  readonly volumeMounts: readonly DynamoVolumeMount[];
  readonly nodeSelector?: Record<string, string>;
  readonly tolerations?: readonly k8s.Toleration[];
  readonly podMetadata?: DynamoPodMetadata;
  readonly frontendSidecar?: DynamoFrontendSidecar;
  /** EPP `EndpointPickerConfig` (JSON), for the Go endpoint picker of runtimes before 1.5. */
  readonly eppConfig?: Record<string, unknown>;
  /**
   * `MAJOR.MINOR.PATCH` of the runtime the main image runs, for an image whose tag is no semantic
   * version (Dynamo's admission cannot read it from the tag then).
   */
  readonly runtimeVersionOverride?: string;
  /** DRA claims of the worker pods; their GPUs are then not in `resources`. */
  readonly deviceClaims?: PodDeviceClaims;
  /**
   * Pods one replica spans (`multinode.nodeCount`), for a worker of a multi-node replica; its
   * `resources` are then one pod's (Dynamo multiplies them by the node count).
   */
  readonly nodeCount?: number;
}

/** The whole graph. */
export interface DynamoGraph {
  readonly backendFramework: string;
  /** Every storage volume's claim, in spec order (v1alpha1 `spec.pvcs`). */
  readonly claimNames: readonly string[];
  /** `spec.env`, applied by Dynamo to every service. */
  readonly env: readonly k8s.EnvVar[];
  /** Sorted by name (the order Go writes the v1alpha1 map, and Dynamo's conversion the list). */
  readonly components: readonly DynamoComponent[];
  /** Pod Security level of every component's pods. @default PodSecurityLevel.BASELINE */
  readonly podSecurity?: PodSecurityLevel;
}

/** How the graph is built, beyond the deployment itself. */
export interface DynamoGraphSettings {
  readonly images: DynamoImages;
  readonly overrides: DynamoTypedOverrides;
  /**
   * The runtime version the graph is for (`dynamoVersion` as a semantic version); unknown (a
   * tag that is none) counts as a current runtime. @default - unknown
   */
  readonly runtime?: RuntimeVersion;
  /** The runtime's tag, for the workers' switch forms. @default DYNAMO_VERSION */
  readonly dynamoVersion?: string;
}

/**
 * A model id as a label value: cut to 63 characters, every character outside `[A-Za-z0-9._-]`
 * replaced by `-`, then leading and trailing `-`, `_` and `.` trimmed
 * (`meta-llama/Llama-2-7b-chat-hf` → `meta-llama-Llama-2-7b-chat-hf`).
 */
export function sanitizeLabelValue(value: string): string {
  return value.slice(0, 63).replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[-_.]+|[-_.]+$/g, '');
}

/** The DynamoGraphDeployment's labels (AI Runway §2.1). */
export function dynamoLabels(md: ResolvedModelDeployment): Record<string, string> {
  return {
    [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    [LABEL_MODEL_DEPLOYMENT]: md.name,
    [LABEL_MODEL_ID]: sanitizeLabelValue(md.spec.model.id ?? ''),
    [LABEL_ENGINE_TYPE]: md.engine,
  };
}

function podMetadataOf(md: ResolvedModelDeployment): DynamoPodMetadata | undefined {
  const meta = md.spec.podTemplate?.metadata;
  const labels = meta?.labels && Object.keys(meta.labels).length > 0 ? { ...meta.labels } : undefined;
  const annotations = meta?.annotations && Object.keys(meta.annotations).length > 0 ? { ...meta.annotations } : undefined;
  return labels || annotations ? { ...(labels && { labels }), ...(annotations && { annotations }) } : undefined;
}

/**
 * Mounts of every storage volume, in spec order, under its resolved claim name. A read-only
 * compilation cache is mounted as a plain read-only volume: a cache Dynamo cannot write is not
 * one (Dynamo's v1beta1 operator refuses it).
 */
export function storageMounts(md: ResolvedModelDeployment): DynamoVolumeMount[] {
  return storageVolumesOf(md.spec).map((v) => {
    const readOnly = v.readOnly === true;
    const mountPath = volumeMountPath(v);
    return {
      claimName: resolvedClaimName(md.name, v),
      ...(mountPath !== undefined && { mountPath }),
      readOnly,
      compilationCache: v.purpose === 'compilationCache' && !readOnly,
    };
  });
}

/**
 * Worker env: `HF_HOME` at the first modelCache volume unless `spec.env` sets `HF_HOME`, then
 * (disaggregated vLLM, the mocker included) NIXL's side-channel host from the pod IP.
 */
function workerEnv(md: ResolvedModelDeployment, role?: DisaggregationRole): k8s.EnvVar[] {
  const env: k8s.EnvVar[] = [];
  const cache = firstModelCacheVolume(md.spec);
  const cachePath = cache ? volumeMountPath(cache) : undefined;
  if (cachePath !== undefined && !(md.spec.env ?? []).some((e) => e.name === HF_HOME_ENV)) {
    env.push({ name: HF_HOME_ENV, value: cachePath });
  }
  if (role && md.engine === 'vllm') {
    env.push(nixlSideChannelHostEnv());
  }
  return env;
}

/** GPUs in both limits and requests (equal, as the API server requires of an extended resource), memory and CPU as limits. */
function gpuResources(gpus: PodGpus, memory?: string, cpu?: string): DynamoResources {
  const requested = gpus.count > 0
    ? { gpu: gpus.count, ...(gpus.gpuType !== DEFAULT_GPU_RESOURCE && { gpuType: gpus.gpuType }) }
    : {};
  return {
    limits: { ...requested, ...(memory && { memory }), ...(cpu && { cpu }) },
    requests: { ...requested },
  };
}

/** The GPUs a worker's pod requests, from its resources. */
function podGpusOf(resources: DynamoResources): PodGpus[] {
  const { gpu, gpuType } = resources.limits;
  return gpu ? [{ count: gpu, gpuType: gpuType ?? DEFAULT_GPU_RESOURCE }] : [];
}

/** Resources with the GPU count and type removed: claimed GPUs come from the DRA claim. */
function withoutGpus(resources: DynamoResources): DynamoResources {
  const strip = ({ gpu: _gpu, gpuType: _type, ...rest }: DynamoResourceList): DynamoResourceList => rest;
  return { limits: strip(resources.limits), requests: strip(resources.requests) };
}

const MOCKER_WORKER_RESOURCES: DynamoResources = { limits: { ...MOCKER_RESOURCES }, requests: { ...MOCKER_RESOURCES } };

interface WorkerSpec {
  readonly name: string;
  readonly role: DynamoComponentRole;
  readonly replicas: number;
  readonly resources: DynamoResources;
  readonly disaggregation?: DisaggregationRole;
  /** The layout of a multi-node replica: `resources` hold one pod's GPUs (`gpusPerNode`). */
  readonly multiNode?: MultiNodeLayout;
}

function worker(md: ResolvedModelDeployment, settings: DynamoGraphSettings, w: WorkerSpec): DynamoComponent {
  const mocker = isMocker(md);
  const image = dynamoWorkerImage(md, settings.images, mocker);
  const secret = md.spec.secrets?.huggingFaceToken || undefined;
  const deviceClaims = mocker ? undefined : podDeviceClaims(md, w.disaggregation ?? 'resources');
  const requested = mocker ? MOCKER_WORKER_RESOURCES : w.resources;
  const resources = deviceClaims ? withoutGpus(requested) : requested;
  const nodeSelector = nodeSelectorOf(md);
  const tolerations = podTolerations(md, podGpusOf(requested));
  const podMetadata = podMetadataOf(md);
  const sidecarArgs = w.disaggregation ? ['-m', 'dynamo.frontend'] : ['-m', 'dynamo.frontend', '--router-mode', 'direct'];
  return {
    name: w.name,
    role: w.role,
    replicas: w.replicas,
    image,
    command: mocker ? [...MOCKER_COMMAND] : workerCommand(md.engine),
    args: mocker
      ? mockerArgs(md.spec, w.disaggregation)
      : dynamoEngineArgs(md.spec, md.engine, {
        role: w.disaggregation,
        multiNode: w.multiNode,
        derivedTensorParallel: w.multiNode ? undefined : dynamoDerivedTensorParallel(md, w.name, w.resources.limits.gpu ?? 0),
        dynamoVersion: settings.dynamoVersion,
      }),
    env: workerEnv(md, w.disaggregation),
    ...(secret && { envFromSecret: secret }),
    resources,
    volumeMounts: storageMounts(md),
    ...(nodeSelector && { nodeSelector }),
    ...(tolerations && { tolerations }),
    ...(podMetadata && { podMetadata }),
    ...(deviceClaims && { deviceClaims }),
    ...(w.multiNode && { nodeCount: w.multiNode.groupSize }),
    // Quirk fixed: the sidecar runs the worker image (AI Runway: always the vLLM runtime).
    ...(gatewayEnabled(md) && { frontendSidecar: { image, args: sidecarArgs, ...(secret && { envFromSecret: secret }) } }),
  };
}

/**
 * A worker's GPUs per pod and layout: `gpu.count`, or, for a multi-node replica, `gpusPerNode`
 * of them on each of its `nodeCount` pods.
 */
function podSizing(
  layouts: Partial<Record<ServingComponent, MultiNodeLayout>>,
  component: ServingComponent,
  count: number | undefined,
): { count: number; multiNode?: MultiNodeLayout } {
  const layout = layouts[component];
  return layout ? { count: layout.gpusPerNode, multiNode: layout } : { count: count ?? 0 };
}

function workers(md: ResolvedModelDeployment, settings: DynamoGraphSettings): DynamoComponent[] {
  const layouts = dynamoMultiNode(md)?.layouts ?? {};
  if (md.mode !== 'disaggregated') {
    const { gpu, memory, cpu } = md.spec.resources ?? {};
    const sizing = podSizing(layouts, 'resources', gpu?.count);
    return [worker(md, settings, {
      // Quirk kept: `VllmWorker` whatever the engine (overrides address it by this key).
      name: WORKER_SERVICE,
      role: 'worker',
      // 0 is honoured (scale to zero; the CRD's minimum is 0), where AI Runway runs one.
      replicas: md.spec.scaling?.replicas ?? 1,
      resources: gpuResources({ count: sizing.count, gpuType: gpuTypeOf(gpu) }, memory || undefined, cpu || undefined),
      ...(sizing.multiNode && { multiNode: sizing.multiNode }),
    })];
  }
  // validateDynamo guarantees both components.
  const prefill = md.spec.scaling!.prefill!;
  const decode = md.spec.scaling!.decode!;
  const decodeSizing = podSizing(layouts, 'decode', decode.gpu?.count);
  const prefillSizing = podSizing(layouts, 'prefill', prefill.gpu?.count);
  // Component replicas are used as given, 0 included (the CRD defaults them to 1).
  return [
    worker(md, settings, {
      name: DECODE_WORKER_SERVICE,
      role: 'decode',
      replicas: decode.replicas ?? 1,
      resources: gpuResources({ count: decodeSizing.count, gpuType: gpuTypeOf(decode.gpu) }, decode.memory || undefined),
      disaggregation: 'decode',
      ...(decodeSizing.multiNode && { multiNode: decodeSizing.multiNode }),
    }),
    worker(md, settings, {
      name: PREFILL_WORKER_SERVICE,
      role: 'prefill',
      replicas: prefill.replicas ?? 1,
      resources: gpuResources({ count: prefillSizing.count, gpuType: gpuTypeOf(prefill.gpu) }, prefill.memory || undefined),
      disaggregation: 'prefill',
      ...(prefillSizing.multiNode && { multiNode: prefillSizing.multiNode }),
    }),
  ];
}

function labelFilter(name: string, value: DisaggregationRole, allowsNoLabel: boolean): Record<string, unknown> {
  return { name, type: 'label-filter', parameters: { label: SUB_COMPONENT_TYPE_LABEL, validValues: [value], allowsNoLabel } };
}

function profile(name: string, pluginRefs: readonly string[]): Record<string, unknown> {
  return { name, plugins: pluginRefs.map((pluginRef) => ({ pluginRef, weight: 1 })) };
}

/**
 * The endpoint picker's configuration: Dynamo's disaggregation-aware profile handler, KV-aware
 * scorers and a max-score picker. Aggregated: one `decode` profile whose filter lets unlabelled
 * (aggregated) workers through. Disaggregated: a `prefill` then a `decode` profile, each
 * admitting only workers labelled with its role.
 */
export function eppConfig(disaggregated: boolean): Record<string, unknown> {
  const handler = { type: 'disagg-profile-handler' };
  const picker = { name: 'picker', type: 'max-score-picker' };
  const decodeScorer = { name: 'dyn-decode', type: 'dyn-decode-scorer' };
  const decodeProfile = profile('decode', ['decode-filter', 'dyn-decode', 'picker']);
  if (!disaggregated) {
    return {
      plugins: [handler, labelFilter('decode-filter', 'decode', true), picker, decodeScorer],
      schedulingProfiles: [decodeProfile],
    };
  }
  return {
    plugins: [
      handler,
      labelFilter('prefill-filter', 'prefill', false),
      labelFilter('decode-filter', 'decode', false),
      picker,
      { name: 'dyn-prefill', type: 'dyn-prefill-scorer' },
      decodeScorer,
    ],
    schedulingProfiles: [profile('prefill', ['prefill-filter', 'dyn-prefill', 'picker']), decodeProfile],
  };
}

/**
 * `Epp` (gateway on): the endpoint picker, told whether decode may fall back and disaggregation is
 * enforced. Before Dynamo 1.5 it is the Go endpoint picker, configured by `eppConfig`; from 1.5 on
 * the native one, which has no such configuration (AI Runway writes none then).
 */
function eppService(md: ResolvedModelDeployment, settings: DynamoGraphSettings): DynamoComponent {
  const disaggregated = md.mode === 'disaggregated';
  const legacyEpp = settings.runtime !== undefined && !isV1Beta1Runtime(settings.runtime);
  const podMetadata = podMetadataOf(md);
  return {
    name: EPP_SERVICE,
    role: 'epp',
    replicas: settings.overrides.eppReplicas ?? 1,
    image: settings.overrides.eppImage ?? settings.images.epp,
    env: [
      { name: 'DYN_DECODE_FALLBACK', value: disaggregated ? 'false' : 'true' },
      { name: 'DYN_ENFORCE_DISAGG', value: disaggregated ? 'true' : 'false' },
    ],
    volumeMounts: [],
    ...(podMetadata && { podMetadata }),
    ...(legacyEpp && { eppConfig: eppConfig(disaggregated) }),
  };
}

/** `Frontend` (gateway off, or mocker): the OpenAI-compatible router in front of the workers. */
function frontendService(md: ResolvedModelDeployment, settings: DynamoGraphSettings): DynamoComponent {
  const defaults = isMocker(md) ? MOCKER_RESOURCES : FRONTEND_REQUESTS;
  const secret = md.spec.secrets?.huggingFaceToken || undefined;
  const podMetadata = podMetadataOf(md);
  return {
    name: FRONTEND_SERVICE,
    role: 'frontend',
    replicas: settings.overrides.frontendReplicas ?? 1,
    // Quirk kept: the Frontend runs the worker image, not dynamo-frontend.
    image: dynamoWorkerImage(md, settings.images, isMocker(md)),
    env: [{ name: 'DYN_ROUTER_MODE', value: settings.overrides.routerMode ?? DEFAULT_ROUTER_MODE }],
    ...(secret && { envFromSecret: secret }),
    resources: {
      limits: {},
      requests: { cpu: settings.overrides.frontendCpu ?? defaults.cpu, memory: settings.overrides.frontendMemory ?? defaults.memory },
    },
    volumeMounts: [],
    ...(podMetadata && { podMetadata }),
  };
}

/**
 * A component whose main image has no semantic-version tag (`:latest`, a digest alone, a custom
 * build's tag) gets `runtimeVersionOverride`, the runtime it is rendered for: Dynamo's admission
 * (1.5 and later) reads a component's runtime version from the tag and refuses the component when
 * it cannot. Not for a runtime below 1.5, whose operator neither asks for the field nor may know
 * it (a strict apply would refuse it). An unknown runtime sets none (the translator warns).
 */
function withRuntimeVersionOverride(c: DynamoComponent, runtime: RuntimeVersion | undefined): DynamoComponent {
  if (runtime === undefined || !isV1Beta1Runtime(runtime) || hasSemverTag(c.image)) return c;
  return { ...c, runtimeVersionOverride: formatRuntimeVersion(runtime) };
}

/**
 * The plan of the deployment's DynamoGraphDeployment. Throws the transformer's errors for a
 * disaggregated spec without `scaling`, `scaling.prefill` or `scaling.decode`, and for an invalid
 * `engine.args` key (`validateDynamo` reports them as field errors first).
 */
export function buildDynamoGraph(md: ResolvedModelDeployment, settings: DynamoGraphSettings): DynamoGraph {
  const front = gatewayEnabled(md) ? eppService(md, settings) : frontendService(md, settings);
  const components = [front, ...workers(md, settings)]
    .map((c) => withRuntimeVersionOverride(c, settings.runtime))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    backendFramework: md.engine,
    claimNames: storageVolumesOf(md.spec).map((v) => resolvedClaimName(md.name, v)),
    // Quirk fixed: spec.env is kept, as the graph-wide env (AI Runway drops it).
    env: (md.spec.env ?? []).map(toKubeEnvVar),
    components,
    podSecurity: podSecurityLevelOf(md.annotations),
  };
}
