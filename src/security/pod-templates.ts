/**
 * Where the pod specs are inside the objects this library emits, so that one Pod Security check
 * covers every pod that will run: the pods of core workloads, and those embedded in the upstream
 * custom resources each provider renders (Dynamo graphs, RayServices, KAITO Workspaces, Kthena
 * ModelServings, modelplane ModelDeployments, LeaderWorkerSets).
 */
import { isJsonObject } from '../core/json-object';

/** One pod spec inside a manifest. */
export interface PodTemplateLocation {
  /** Path of the pod spec inside the manifest, e.g. `spec.template.spec`. */
  readonly path: string;
  /**
   * The pod spec as the Pod Security Standards read it. For a Dynamo v1alpha1 `extraPodSpec`,
   * whose main container is the separate `mainContainer`, that container is put first in
   * `containers` (see `manifestPathOf` to map a violation's path back).
   */
  readonly podSpec: any;
  /** True when `containers[0]` of `podSpec` is the `mainContainer` of a Dynamo `extraPodSpec`. */
  readonly mainContainerFirst?: boolean;
}

/** The pod-template paths of the core workload kinds: `spec.template.spec`. */
const TEMPLATE_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'ReplicationController']);

/**
 * Every pod spec inside `manifest` (one Kubernetes object as JSON). Known kinds are read at their
 * documented fields; for any other kind (a custom provider's) every object with a `containers`
 * list is taken as a pod spec, so an unknown kind cannot hide a pod.
 */
export function podTemplatesOf(manifest: any): PodTemplateLocation[] {
  if (!isJsonObject(manifest)) return [];
  const kind = manifest.kind;
  const apiVersion = typeof manifest.apiVersion === 'string' ? manifest.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const out: PodTemplateLocation[] = [];
  const at = (path: string, value: unknown) => {
    if (isJsonObject(value)) out.push({ path, podSpec: value });
  };
  const spec = isJsonObject(manifest.spec) ? manifest.spec : {};

  if (group === '' && kind === 'Pod') {
    at('spec', manifest.spec);
  } else if (group === '' && kind === 'PodTemplate') {
    at('template.spec', get(manifest, 'template', 'spec'));
  } else if ((group === 'apps' || group === 'batch' || group === '') && TEMPLATE_KINDS.has(kind as string)) {
    at('spec.template.spec', get(spec, 'template', 'spec'));
  } else if (group === 'batch' && kind === 'CronJob') {
    at('spec.jobTemplate.spec.template.spec', get(spec, 'jobTemplate', 'spec', 'template', 'spec'));
  } else if (group === 'leaderworkerset.x-k8s.io' && kind === 'LeaderWorkerSet') {
    at('spec.leaderWorkerTemplate.leaderTemplate.spec', get(spec, 'leaderWorkerTemplate', 'leaderTemplate', 'spec'));
    at('spec.leaderWorkerTemplate.workerTemplate.spec', get(spec, 'leaderWorkerTemplate', 'workerTemplate', 'spec'));
  } else if (group === 'nvidia.com' && kind === 'DynamoGraphDeployment') {
    dynamoPodSpecs(spec, out);
  } else if (group === 'ray.io' && (kind === 'RayService' || kind === 'RayCluster' || kind === 'RayJob')) {
    const cluster = kind === 'RayService' ? get(spec, 'rayClusterConfig') : kind === 'RayJob' ? get(spec, 'rayClusterSpec') : spec;
    const prefix = kind === 'RayService' ? 'spec.rayClusterConfig' : kind === 'RayJob' ? 'spec.rayClusterSpec' : 'spec';
    at(`${prefix}.headGroupSpec.template.spec`, get(cluster, 'headGroupSpec', 'template', 'spec'));
    eachOf(get(cluster, 'workerGroupSpecs'), (group_, i) => at(`${prefix}.workerGroupSpecs[${i}].template.spec`, get(group_, 'template', 'spec')));
    if (kind === 'RayJob') at('spec.submitterPodTemplate.spec', get(spec, 'submitterPodTemplate', 'spec'));
  } else if (group === 'kaito.sh' && kind === 'Workspace') {
    // KAITO keeps the Workspace's settings at the root, not under `spec`.
    at('inference.template.spec', get(manifest, 'inference', 'template', 'spec'));
  } else if (group === 'kaito.sh' && kind === 'InferenceSet') {
    at('spec.template.inference.template.spec', get(spec, 'template', 'inference', 'template', 'spec'));
  } else if (group === 'workload.serving.volcano.sh' && kind === 'ModelServing') {
    eachOf(get(spec, 'template', 'roles'), (role, i) => {
      at(`spec.template.roles[${i}].entryTemplate.spec`, get(role, 'entryTemplate', 'spec'));
      at(`spec.template.roles[${i}].workerTemplate.spec`, get(role, 'workerTemplate', 'spec'));
    });
  } else if (group === 'modelplane.ai' && kind === 'ModelDeployment') {
    eachOf(get(spec, 'template', 'spec', 'engines'), (engine, i) =>
      eachOf(get(engine, 'members'), (member, j) =>
        at(`spec.template.spec.engines[${i}].members[${j}].template.spec`, get(member, 'template', 'spec'))));
  } else {
    findPodSpecs(manifest, '', out);
  }
  return out;
}

/**
 * The path inside the manifest of a field that a Pod Security violation names relative to the
 * pod spec at `location` (`containers[0].securityContext` of a Dynamo `extraPodSpec` is its
 * `mainContainer.securityContext`).
 */
export function manifestPathOf(location: PodTemplateLocation, relativePath: string): string {
  let rel = relativePath;
  if (location.mainContainerFirst) {
    const match = /^containers\[(\d+)\](.*)$/.exec(rel);
    if (match) {
      const index = Number(match[1]);
      rel = index === 0 ? `mainContainer${match[2]}` : `containers[${index - 1}]${match[2]}`;
    }
  }
  if (location.path === '') return rel;
  return rel.startsWith('[') ? `${location.path}${rel}` : `${location.path}.${rel}`;
}

/**
 * Dynamo: v1alpha1 `spec.services.<name>.extraPodSpec` (a PodSpec whose main container is
 * `mainContainer`), v1beta1 `spec.components[i].podTemplate.spec`, and the multinode pod
 * templates either version may carry.
 */
function dynamoPodSpecs(spec: Record<string, unknown>, out: PodTemplateLocation[]): void {
  const services = get(spec, 'services');
  if (isJsonObject(services)) {
    for (const [name, service] of Object.entries(services)) {
      const extra = get(service, 'extraPodSpec');
      if (!isJsonObject(extra)) continue;
      const path = `spec.services${segment(name)}.extraPodSpec`;
      const main = isJsonObject(extra.mainContainer) ? [extra.mainContainer] : [];
      const others = Array.isArray(extra.containers) ? extra.containers : [];
      const { mainContainer: _main, ...rest } = extra;
      out.push({ path, podSpec: { ...rest, containers: [...main, ...others] }, mainContainerFirst: main.length > 0 });
    }
  }
  eachOf(get(spec, 'components'), (component, i) => {
    const podSpec = get(component, 'podTemplate', 'spec');
    if (isJsonObject(podSpec)) out.push({ path: `spec.components[${i}].podTemplate.spec`, podSpec });
  });
}

/** Any object with a `containers` list, outside `metadata` and `status`. */
function findPodSpecs(value: unknown, path: string, out: PodTemplateLocation[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => findPodSpecs(item, `${path}[${i}]`, out));
    return;
  }
  if (!isJsonObject(value)) return;
  if (Array.isArray(value.containers) && value.containers.some(isJsonObject)) {
    out.push({ path, podSpec: value });
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (path === '' && (key === 'metadata' || key === 'status')) continue;
    findPodSpecs(child, path === '' ? key : `${path}${segment(key)}`, out);
  }
}

function segment(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function get(value: unknown, ...keys: string[]): unknown {
  let node = value;
  for (const key of keys) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function eachOf(value: unknown, fn: (item: unknown, index: number) => void): void {
  if (Array.isArray(value)) value.forEach(fn);
}
