import { isAutoscaled } from '../api/autoscaling/autoscaling-annotation';
import {
  DEFAULT_COMPILATION_CACHE_MOUNT_PATH,
  DEFAULT_GPU_RESOURCE,
  DEFAULT_MODEL_CACHE_MOUNT_PATH,
  DEFAULT_VOLUME_ACCESS_MODE,
} from '../core/defaults';
import type {
  ComponentScalingSpec,
  GpuSpec,
  ModelDeploymentSpec,
  StorageVolume,
} from '../core/generated/model-deployment-spec';
import { cloneJson } from '../core/json-clone';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { isManagedVolume } from '../storage/storage-validation';

/**
 * What a ModelDeployment looks like once stored by the API server: AI Runway's mutating
 * webhook defaults (§3.2, in its order) followed by the CRD's structural `default`s.
 *
 * Only absent fields (`undefined`, or `null`, which the API server drops before defaulting) and,
 * where the webhook tests for emptiness, empty strings are filled. The webhook never emits
 * `remove` operations, so a user's explicit `0`, `false` or `replicas: 0` survives.
 */

/** Returns a defaulted copy of `md`; `md` itself is never modified. */
export function applyDefaults(md: ModelDeploymentObject): ModelDeploymentObject {
  const spec: ModelDeploymentSpec = cloneJson(md.spec);
  const autoscaled = isAutoscaled(md.annotations);
  applyWebhookDefaults(md.name, spec, autoscaled);
  applyStructuralDefaults(spec, autoscaled);
  return { ...md, spec };
}

/** The mutating webhook's `Default()`, steps 1–7 in order. Mutates `spec` (a private copy). */
function applyWebhookDefaults(name: string, spec: ModelDeploymentSpec, autoscaled: boolean): void {
  // 1. Model source.
  spec.model = spec.model ?? {};
  if (!spec.model.source) spec.model.source = 'huggingface';

  // 2. Serving mode.
  if (!spec.serving) spec.serving = { mode: 'aggregated' };
  else if (!spec.serving.mode) spec.serving.mode = 'aggregated';
  const aggregated = spec.serving.mode === 'aggregated';

  // 3. One replica in aggregated mode; an explicit scaling block (even replicas: 0) is kept.
  //    Ours: not when an autoscaler sets the replicas (annotation inference.cdk8s.io/autoscaling),
  //    where a fixed count is an error (src/api/autoscaling/autoscaling-annotation.ts).
  if (aggregated && !spec.scaling && !autoscaled) spec.scaling = { replicas: 1 };
  if (autoscaled && spec.scaling && Object.keys(spec.scaling).length === 0) delete spec.scaling;

  // 4. One GPU for an explicitly chosen GPU engine, unless the user wrote any resources block
  //    or set the legacy image (spec.engine.image does not count).
  const engineType = spec.engine?.type;
  if (aggregated && !spec.resources && engineType && engineType !== 'llamacpp' && !spec.image) {
    spec.resources = { gpu: { count: 1, type: DEFAULT_GPU_RESOURCE } };
  }

  // 5, 6. GPU resource names.
  defaultGpuType(spec.resources?.gpu);
  defaultGpuType(spec.scaling?.prefill?.gpu);
  defaultGpuType(spec.scaling?.decode?.gpu);

  // 7. Storage volumes.
  for (const volume of spec.model.storage?.volumes ?? []) defaultVolume(name, volume);
}

function defaultGpuType(gpu: GpuSpec | undefined): void {
  if (gpu && !gpu.type) gpu.type = DEFAULT_GPU_RESOURCE;
}

function defaultVolume(deploymentName: string, volume: StorageVolume): void {
  if (!volume.purpose) volume.purpose = 'custom';
  if (!volume.mountPath) {
    if (volume.purpose === 'modelCache') volume.mountPath = DEFAULT_MODEL_CACHE_MOUNT_PATH;
    else if (volume.purpose === 'compilationCache') volume.mountPath = DEFAULT_COMPILATION_CACHE_MOUNT_PATH;
  }
  if (isManagedVolume(volume)) {
    if (!volume.claimName) volume.claimName = `${deploymentName}-${volume.name}`;
    if (!volume.accessMode) volume.accessMode = DEFAULT_VOLUME_ACCESS_MODE;
  }
}

/**
 * The CRD's OpenAPI `default`s, which the API server applies to absent fields of objects that
 * are present.
 *
 * `spec.engine` is always materialised here. In AI Runway it appears only when the webhook
 * changed something else in the same request (its Go type is a non-pointer struct that the
 * whole-object patch then serialises), so a request that already carried every webhook default
 * but no `engine` is stored without it and reads `enablePrefixCaching` as false. We run at build
 * time with no admission request to diff against, and in practice some webhook default fires for
 * almost every spec; materialising `engine` unconditionally gives one stable, documented answer:
 * prefix caching is on unless the user turns it off.
 *
 * Not reproduced: the defaults inside `spec.env[].valueFrom` (core EnvVar schema), which do not
 * affect any AI Runway rule, and the canonical re-rendering of `size` quantities.
 */
function applyStructuralDefaults(spec: ModelDeploymentSpec, autoscaled: boolean): void {
  spec.model.source = spec.model.source || 'huggingface';

  const engine = (spec.engine = spec.engine ?? {});
  if (engine.enablePrefixCaching == null) engine.enablePrefixCaching = true;
  if (engine.trustRemoteCode == null) engine.trustRemoteCode = false;
  if (engine.enforceEager == null) engine.enforceEager = false;

  if (spec.serving && spec.serving.mode == null) spec.serving.mode = 'aggregated';

  if (spec.scaling) {
    if (spec.scaling.replicas == null && !autoscaled) spec.scaling.replicas = 1;
    defaultComponent(spec.scaling.prefill);
    defaultComponent(spec.scaling.decode);
  }
  structuralGpu(spec.resources?.gpu);

  for (const volume of spec.model.storage?.volumes ?? []) {
    if (volume.purpose == null) volume.purpose = 'custom';
    if (volume.readOnly == null) volume.readOnly = false;
  }
}

function defaultComponent(component: ComponentScalingSpec | undefined): void {
  if (!component) return;
  if (component.replicas == null) component.replicas = 1;
  structuralGpu(component.gpu);
}

function structuralGpu(gpu: GpuSpec | undefined): void {
  if (!gpu) return;
  if (gpu.count == null) gpu.count = 0;
  if (gpu.type == null) gpu.type = DEFAULT_GPU_RESOURCE;
}
