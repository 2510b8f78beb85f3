import { Size } from 'cdk8s';
import type { ModelDeploymentProps } from './model-deployment-props';
import type { GpuOptions } from '../api/resources';
import type { ComponentScaling } from '../api/scaling';
import type { StorageVolume } from '../api/storage';
import type {
  ComponentScalingSpec,
  GpuSpec,
  ModelDeploymentSpec,
  StorageVolume as StorageVolumeSpec,
} from '../core/generated/model-deployment-spec';
import { k8s } from '../core/kube-api';

/**
 * Converts construct props into the AI Runway spec shape that the translation core works on.
 * Only what the user set is written, so defaulting sees the same spec a YAML user would write.
 */
export function propsToSpec(props: ModelDeploymentProps): ModelDeploymentSpec {
  const { id, servedName, source } = props.model;
  const spec: ModelDeploymentSpec = { model: compact({ id, servedName, source }) };
  if (props.storage) spec.model.storage = { volumes: props.storage.map(volumeSpec) };
  if (props.engine) {
    const e = props.engine;
    spec.engine = compact({
      type: e.engineType,
      image: e.image,
      contextLength: e.contextLength,
      trustRemoteCode: e.trustRemoteCode,
      enablePrefixCaching: e.enablePrefixCaching,
      enforceEager: e.enforceEager,
      args: e.args && { ...e.args },
      extraArgs: e.extraArgs && [...e.extraArgs],
    });
  }
  if (props.provider) {
    const overrides = props.provider.overrides && structuredClone(props.provider.overrides);
    spec.provider = compact({ name: props.provider.name, overrides });
  }
  if (props.servingMode) spec.serving = { mode: props.servingMode };
  if (props.scaling) {
    const s = props.scaling;
    spec.scaling = compact({ replicas: s.replicas, prefill: s.prefill && componentSpec(s.prefill), decode: s.decode && componentSpec(s.decode) });
  }
  if (props.resources) {
    const r = props.resources;
    spec.resources = compact({ gpu: r.gpu && gpuSpec(r.gpu), cpu: r.cpu?.amount, memory: r.memory && quantity(r.memory) });
  }
  if (props.image !== undefined) spec.image = props.image;
  if (props.env) spec.env = props.env.map((e) => k8s.toJson_EnvVar(e) as any);
  if (props.podLabels || props.podAnnotations) {
    const labels = props.podLabels && { ...props.podLabels };
    const annotations = props.podAnnotations && { ...props.podAnnotations };
    spec.podTemplate = { metadata: compact({ labels, annotations }) };
  }
  if (props.huggingFaceTokenSecret !== undefined) spec.secrets = { huggingFaceToken: props.huggingFaceTokenSecret };
  if (props.gateway) {
    // Only the AI Runway fields; where the route attaches and the pool version are build inputs.
    const { enabled, modelName, httpRouteRef } = props.gateway;
    spec.gateway = compact({ enabled, modelName, httpRouteRef });
  }
  if (props.nodeSelector) spec.nodeSelector = { ...props.nodeSelector };
  if (props.tolerations) spec.tolerations = props.tolerations.map((t) => k8s.toJson_Toleration(t) as any);
  return spec;
}

function volumeSpec(v: StorageVolume): StorageVolumeSpec {
  return compact({
    name: v.name,
    purpose: v.purpose,
    size: v.size && quantity(v.size),
    claimName: v.claimName,
    mountPath: v.mountPath,
    readOnly: v.readOnly,
    storageClassName: v.storageClassName,
    accessMode: v.accessMode,
  }) as StorageVolumeSpec;
}

function componentSpec(c: ComponentScaling): ComponentScalingSpec {
  return compact({ replicas: c.replicas, gpu: c.gpu && gpuSpec(c.gpu), memory: c.memory && quantity(c.memory) });
}

function gpuSpec(g: GpuOptions): GpuSpec {
  return compact({ count: g.count, type: g.resourceName });
}

/** `Size` as a Kubernetes quantity (`100Gi`, `1536Mi`). */
function quantity(size: Size): string {
  return size.asString();
}

/** Drops undefined members so the spec only carries what the user set. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
