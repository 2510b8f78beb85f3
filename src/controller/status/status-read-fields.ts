/**
 * What the status logic reads of each kind of upstream object: the one declared list per kind
 * that the controller's caches keep (everything else of a cached object is dropped as it
 * arrives, like controller-runtime's cache `TransformFunc`). A Deployment's pod template, a
 * DynamoGraphDeployment's services or a RayService's cluster spec are most of each object and no
 * status reads them; a controller caching thousands of them keeps only these fields.
 *
 * A field is a dotted path from the object's root; `*` stands for every element of a list or
 * every value of a map. A path ending at an object keeps that whole object. Besides these, every
 * cached object keeps `apiVersion`, `kind` and the identity metadata (`CACHED_METADATA_FIELDS`).
 *
 * Adding a read to a mapping means adding its field here:
 * test/controller/status/status-read-fields.test.ts runs every shipped provider's mapping and the
 * gateway status over fixtures, records every field they read, and fails on a read outside the
 * list (and on a status that differs between the whole object and what the cache keeps).
 */

/** Metadata every cached object keeps: identity, the version the informer compares, generation (staleness checks) and deletion. */
export const CACHED_METADATA_FIELDS: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'metadata.resourceVersion',
  'metadata.generation',
  'metadata.deletionTimestamp',
];

/** The fields the status logic reads of one kind (every version of its API group). */
export interface StatusReadFields {
  /** API group (`apps`, `ray.io`; empty for the core group). */
  readonly group: string;
  readonly kind: string;
  /** Dotted paths, `*` for every list element or map value. */
  readonly fields: readonly string[];
  /** Which code reads them (for whoever changes it). */
  readonly readBy: string;
}

/** The conditions fields the `conditionsByType`-based mappings read. */
const CONDITIONS = ['status.conditions.*.type', 'status.conditions.*.status', 'status.conditions.*.reason', 'status.conditions.*.message'];

/** Per kind, the fields some status mapping reads. */
export const STATUS_READ_FIELDS: readonly StatusReadFields[] = [
  {
    group: 'apps',
    kind: 'Deployment',
    fields: ['spec.replicas', 'status.readyReplicas', 'status.availableReplicas', ...CONDITIONS],
    readBy: 'provider-kit/deployment-status.ts (vllm, llmd)',
  },
  {
    group: 'leaderworkerset.x-k8s.io',
    kind: 'LeaderWorkerSet',
    fields: ['spec.replicas', 'status.readyReplicas', ...CONDITIONS],
    readBy: 'provider-kit/leader-worker-set-status.ts (vllm, llmd multi-node)',
  },
  {
    group: 'nvidia.com',
    kind: 'DynamoGraphDeployment',
    // The status is small (state, conditions, per-service counts); the spec holds every service's pod spec.
    fields: ['spec.services.*.replicas', 'spec.components.*.replicas', 'status'],
    readBy: 'providers/dynamo/status.ts',
  },
  {
    group: 'ray.io',
    kind: 'RayService',
    fields: [
      'spec.rayClusterConfig.workerGroupSpecs.*.replicas',
      'status.conditions.*.type',
      'status.conditions.*.status',
      'status.conditions.*.reason',
      'status.conditions.*.message',
      'status.activeServiceStatus.applicationStatuses.*.status',
      'status.activeServiceStatus.applicationStatuses.*.message',
    ],
    readBy: 'providers/kuberay/status.ts',
  },
  {
    group: 'kaito.sh',
    kind: 'Workspace',
    fields: ['resource.count', 'status.state', ...CONDITIONS],
    readBy: 'providers/kaito/status.ts',
  },
  {
    group: 'workload.serving.volcano.sh',
    kind: 'ModelServing',
    fields: ['spec.replicas', 'status.availableReplicas', 'status.observedGeneration', ...CONDITIONS],
    readBy: 'providers/kthena/status.ts',
  },
  {
    group: 'ai.flexinfer',
    kind: 'Model',
    fields: [
      'spec.backend',
      'spec.serverless.enabled',
      'spec.serverless.minReplicas',
      'status.phase',
      'status.message',
      'status.endpoint',
      'status.sharedGroup.state',
      'status.sharedGroup.groupName',
      ...CONDITIONS,
    ],
    readBy: 'providers/flexinfer/status.ts',
  },
  {
    group: 'modelplane.ai',
    kind: 'ModelDeployment',
    fields: ['spec.replicas', 'status.replicas.ready', ...CONDITIONS],
    readBy: 'providers/modelplane/status.ts',
  },
  {
    group: 'gateway.networking.k8s.io',
    kind: 'HTTPRoute',
    fields: ['spec.parentRefs', 'spec.rules.*.matches', 'spec.rules.*.backendRefs', 'status.parents'],
    readBy: 'controller/status/gateway-status.ts',
  },
  {
    group: 'gateway.networking.k8s.io',
    kind: 'Gateway',
    fields: ['status.addresses'],
    readBy: 'controller/status/gateway-status.ts',
  },
  {
    group: 'inference.networking.k8s.io',
    kind: 'InferencePool',
    fields: ['status.parents', 'status.parent'],
    readBy: 'controller/status/gateway-status.ts',
  },
  {
    group: 'inference.networking.x-k8s.io',
    kind: 'InferencePool',
    fields: ['status.parents', 'status.parent'],
    readBy: 'controller/status/gateway-status.ts',
  },
  {
    group: 'apiextensions.k8s.io',
    kind: 'CustomResourceDefinition',
    // Of each schema only the keywords that decide pruning are kept (compactCrd, the cache's transform).
    fields: ['spec.group', 'spec.names.kind', 'spec.names.plural', 'spec.versions.*.name', 'spec.versions.*.served', 'spec.versions.*.schema'],
    readBy: 'controller-contract/crd-compatibility.ts (IncompatibleUpstream)',
  },
];

/**
 * The fields the status logic reads of `apiVersion kind` (with `CACHED_METADATA_FIELDS`);
 * undefined for a kind no status reads is declared for, which is then cached whole.
 */
export function statusReadFields(apiVersion: string, kind: string): readonly string[] | undefined {
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const entry = STATUS_READ_FIELDS.find((e) => e.group === group && e.kind === kind);
  return entry && [...CACHED_METADATA_FIELDS, ...entry.fields];
}
