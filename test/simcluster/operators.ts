/**
 * What the operators that cannot run in the simulated cluster do with the custom resources the
 * examples emit, turned into the workloads (or pods) they would create — so that the pod
 * templates inside those resources meet the real scheduler as pods, the way they would in a
 * cluster with the operator installed.
 *
 * Each kind's function follows the operator's behaviour as its type definitions in
 * ../shared/upstream describe it (and, where noted, the operator's source), limited to what decides
 * scheduling: which pods exist, how many, and their pod spec (resources, node selector and
 * affinity, tolerations, volumes, resource claims, scheduler name). Labels, probes, sidecars,
 * Services and status the operators also manage are left out. Every object made here carries
 * `simcluster.cdk8s.io/source` (the custom resource) and `simcluster.cdk8s.io/template` (the pod
 * template within it) on its pods, and an owner reference to the custom resource, so deleting the
 * resource lets the garbage collector clean up as in a cluster.
 *
 * Not emulated: KubeRay's RayService (the real KubeRay operator runs in the simulated cluster),
 * and AI Runway's own ModelDeployment (the library is its controller: the examples hold what it
 * produces).
 */
import { KubeClient, KubeObject, waitFor } from '../envtest/kube-client';

export const SOURCE_LABEL = 'simcluster.cdk8s.io/source';
export const TEMPLATE_LABEL = 'simcluster.cdk8s.io/template';

/** What an operator would create for one custom resource. */
export interface Emulation {
  /** Workloads (Deployments, StatefulSets), Pods, ResourceClaimTemplates..., created in order. */
  readonly objects: KubeObject[];
  /** Pods the operator's workloads end up with (for the wait: pods may come later, through controllers). */
  readonly expectedPods: number;
  /** What was emulated, and what was not (for the report). */
  readonly notes: string[];
  /** A second step after `objects` exist (LeaderWorkerSet: worker StatefulSets once leader pods exist). */
  readonly followUp?: (client: KubeClient, timeoutMs: number) => Promise<void>;
}

/** `group/Kind` of the custom resources emulated here. */
export const EMULATED_KINDS = [
  'leaderworkerset.x-k8s.io/LeaderWorkerSet',
  'nvidia.com/DynamoGraphDeployment',
  'kaito.sh/Workspace',
  'workload.serving.volcano.sh/ModelServing',
  'modelplane.ai/ModelDeployment',
  'ai.flexinfer/Model',
];

export function kindKey(o: KubeObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  return `${group}/${o.kind}`;
}

/** The emulation of `cr` (as the API server returned it: its uid is needed for owner references), or undefined for other kinds. */
export function emulate(cr: KubeObject): Emulation | undefined {
  switch (kindKey(cr)) {
    case 'leaderworkerset.x-k8s.io/LeaderWorkerSet': return leaderWorkerSet(cr);
    case 'nvidia.com/DynamoGraphDeployment': return cr.apiVersion.endsWith('/v1alpha1') ? dynamoV1alpha1(cr) : dynamoV1beta1(cr);
    case 'kaito.sh/Workspace': return kaitoWorkspace(cr);
    case 'workload.serving.volcano.sh/ModelServing': return kthenaModelServing(cr);
    case 'modelplane.ai/ModelDeployment': return modelplaneModelDeployment(cr);
    case 'ai.flexinfer/Model': return flexinferModel(cr);
    default: return undefined;
  }
}

// ---------------------------------------------------------------------------------------------

function ownerRef(o: KubeObject): any {
  if (!o.metadata?.uid) throw new Error(`${o.kind} ${o.metadata?.name}: no uid (emulate the object the API server returned)`);
  return { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid, controller: true, blockOwnerDeletion: false };
}

function clone<T>(v: T): T {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

/** A DNS-label-safe name (at most 63 characters). */
function dnsName(...parts: string[]): string {
  return parts.join('-').toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 63).replace(/-$/, '');
}

/** A pod template with the harness's source labels added (a copy). */
function labelled(template: any, source: KubeObject, templateName: string, selector: Record<string, string>): any {
  const t = clone(template ?? {});
  t.metadata = { ...t.metadata, labels: { ...t.metadata?.labels, ...selector, [SOURCE_LABEL]: `${source.kind}.${source.metadata!.name}`, [TEMPLATE_LABEL]: dnsName(templateName) } };
  t.spec ??= {};
  return t;
}

function deployment(owner: KubeObject, name: string, replicas: number, template: any, templateName: string): KubeObject {
  const selector = { 'simcluster.cdk8s.io/workload': name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: owner.metadata!.namespace, ownerReferences: [ownerRef(owner)] },
    spec: { replicas, selector: { matchLabels: selector }, template: labelled(template, owner, templateName, selector) },
  };
}

/** A StatefulSet whose pods are all created at once (podManagementPolicy Parallel). */
function statefulSet(
  owner: KubeObject, name: string, replicas: number, template: any, templateName: string,
  ownerOverride?: any, extraLabels: Record<string, string> = {},
): KubeObject {
  const selector = { 'simcluster.cdk8s.io/workload': name };
  const t = labelled(template, owner, templateName, { ...selector, ...extraLabels });
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: owner.metadata!.namespace, ownerReferences: [ownerOverride ?? ownerRef(owner)] },
    spec: { replicas, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: selector }, template: t },
  };
}

// ---------------------------------------------------------------------------------------------
// LeaderWorkerSet (kubernetes-sigs/lws)

/**
 * The LWS controller makes a leader StatefulSet named after the LeaderWorkerSet, one pod per group
 * (`spec.replicas`, default 1), from `leaderTemplate` (or `workerTemplate` when there is none); for
 * each leader pod its pod controller then makes a worker StatefulSet `<name>-<group>` with
 * `size - 1` pods from `workerTemplate`, owned by the leader pod (startupPolicy LeaderCreated: once
 * the leader pod exists). Both are Parallel. Pods carry `leaderworkerset.sigs.k8s.io/name`,
 * `/group-index` and `/worker-index`. Exclusive placement and subgroups (annotations) are not used
 * by the examples and not emulated.
 */
function leaderWorkerSet(lws: KubeObject): Emulation {
  const name = lws.metadata!.name!;
  const ns = lws.metadata!.namespace!;
  const groups = lws.spec?.replicas ?? 1;
  const lwt = lws.spec?.leaderWorkerTemplate ?? {};
  const size = lwt.size ?? 1;
  const leaderTemplate = lwt.leaderTemplate ?? lwt.workerTemplate;
  const leader = statefulSet(lws, name, groups, leaderTemplate, 'leaderTemplate', undefined, { 'leaderworkerset.sigs.k8s.io/name': name, 'leaderworkerset.sigs.k8s.io/worker-index': '0' });
  const followUp = async (client: KubeClient, timeoutMs: number): Promise<void> => {
    if (size < 2) return;
    const leaders = await waitFor(async () => {
      const pods = await client.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace: ns }, { labelSelector: `simcluster.cdk8s.io/workload=${name}` });
      return pods.items.length >= groups ? pods.items : false;
    }, timeoutMs, `the ${groups} leader pods of LeaderWorkerSet ${ns}/${name}`);
    for (const pod of leaders) {
      const group = pod.metadata!.name!.slice(name.length + 1);
      const podOwner = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata!.name, uid: pod.metadata!.uid, controller: true, blockOwnerDeletion: false };
      const workers = statefulSet(lws, `${name}-${group}`, size - 1, lwt.workerTemplate, 'workerTemplate', podOwner,
        { 'leaderworkerset.sigs.k8s.io/name': name, 'leaderworkerset.sigs.k8s.io/group-index': group });
      await client.create(workers);
    }
  };
  return {
    objects: [leader],
    expectedPods: groups * size,
    notes: [`LeaderWorkerSet: ${groups} group(s) of ${size}: a leader StatefulSet, then a worker StatefulSet of ${size - 1} per leader pod`],
    followUp,
  };
}

// ---------------------------------------------------------------------------------------------
// NVIDIA Dynamo (ai-dynamo/dynamo, deploy/operator)

/**
 * v1alpha1: each entry of `spec.services` becomes a DynamoComponentDeployment, which the operator
 * turns into a Deployment of `replicas` (default 1) pods: `extraPodSpec` (a PodSpec) with its
 * `mainContainer` as the pod's main container, whose resources are `resources` translated by the
 * operator's GetResourcesConfig (controller_common/resource.go): `cpu`, `memory` as themselves,
 * `gpu` as `nvidia.com/gpu` (or `gpuType` when set), `custom` entries by name, requests and limits
 * as given. `envFromSecret` becomes an envFrom (not a scheduling matter). A service with
 * `multinode` would go through Grove or LWS; none of the examples has one (noted when one does).
 */
function dynamoV1alpha1(dgd: KubeObject): Emulation {
  const objects: KubeObject[] = [];
  const notes: string[] = [];
  let expected = 0;
  for (const [svc, spec] of Object.entries<any>(dgd.spec?.services ?? {})) {
    const replicas = spec.replicas ?? 1;
    const { mainContainer, ...podSpec } = clone(spec.extraPodSpec ?? {});
    const container = { name: 'main', image: 'nvcr.io/nvidia/ai-dynamo/runtime', ...mainContainer };
    const resources = dynamoResources(spec.resources);
    if (resources) container.resources = resources;
    if (spec.envFromSecret) container.envFrom = [...container.envFrom ?? [], { secretRef: { name: spec.envFromSecret } }];
    podSpec.containers = [container, ...(podSpec.containers ?? []).filter((c: any) => c.name !== container.name)];
    if (spec.multinode) notes.push(`${svc}: multinode (${JSON.stringify(spec.multinode)}) not emulated: one pod per replica`);
    objects.push(deployment(dgd, dnsName(dgd.metadata!.name!, svc), replicas, { spec: podSpec }, `services.${svc}`));
    expected += replicas;
  }
  notes.push(`DynamoGraphDeployment v1alpha1: one Deployment per service (${Object.keys(dgd.spec?.services ?? {}).join(', ')})`);
  return { objects, expectedPods: expected, notes };
}

function dynamoResources(r: any): any {
  if (!r) return undefined;
  const side = (item: any): Record<string, string> | undefined => {
    if (!item) return undefined;
    const out: Record<string, string> = {};
    if (item.cpu) out.cpu = item.cpu;
    if (item.memory) out.memory = item.memory;
    if (item.gpu) out[item.gpuType || 'nvidia.com/gpu'] = item.gpu;
    for (const [k, v] of Object.entries<string>(item.custom ?? {})) out[k] = v;
    return Object.keys(out).length ? out : undefined;
  };
  const out: any = {};
  const limits = side(r.limits);
  const requests = side(r.requests);
  if (limits) out.limits = limits;
  if (requests) out.requests = requests;
  if (r.claims) out.claims = r.claims;
  return Object.keys(out).length ? out : undefined;
}

/** v1beta1: each of `spec.components` becomes a Deployment of `replicas` pods from its `podTemplate`. */
function dynamoV1beta1(dgd: KubeObject): Emulation {
  const objects: KubeObject[] = [];
  let expected = 0;
  const components: any[] = dgd.spec?.components ?? [];
  for (const c of components) {
    const replicas = c.replicas ?? 1;
    objects.push(deployment(dgd, dnsName(dgd.metadata!.name!, c.name), replicas, c.podTemplate, `components.${c.name}`));
    expected += replicas;
  }
  return { objects, expectedPods: expected, notes: [`DynamoGraphDeployment v1beta1: one Deployment per component (${components.map((c) => c.name).join(', ')})`] };
}

// ---------------------------------------------------------------------------------------------
// KAITO (kaito-project/kaito)

/**
 * The workspace controller runs inference as a StatefulSet of `resource.count` (default 1) pods,
 * pinned by a required node affinity to `resource.labelSelector.matchLabels` (each label `In`
 * [value]) and given the tolerations of its defaultTolerations(): `nvidia.com/gpu` Exists
 * NoSchedule and `sku=gpu:NoSchedule` (pkg/workspace/inference). With `inference.template` the
 * pod spec is the template's; with `inference.preset` it is KAITO's preset image with a
 * `nvidia.com/gpu` request per pod: here 1, the smallest a preset asks for (the count KAITO derives
 * from the preset's memory needs and the node's GPUs is not modelled). Node provisioning (Karpenter
 * NodeClaims for `resource.instanceType`) does not run: the pods go to existing nodes (KAITO's
 * "bring your own nodes" mode, which a workspace without instanceType is).
 */
function kaitoWorkspace(ws: KubeObject): Emulation {
  const count = ws.resource?.count ?? 1;
  const matchLabels: Record<string, string> = ws.resource?.labelSelector?.matchLabels ?? {};
  const tolerations = [
    { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
  ];
  let template: any;
  let what: string;
  if (ws.inference?.template) {
    template = clone(ws.inference.template);
    what = 'inference.template';
  } else {
    template = {
      spec: {
        containers: [{
          name: ws.metadata!.name,
          image: 'mcr.microsoft.com/aks/kaito/kaito-base',
          resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        }],
      },
    };
    what = `inference.preset (${ws.inference?.preset?.name})`;
  }
  template.spec ??= {};
  const requirements = Object.entries(matchLabels).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  if (requirements.length > 0) {
    const required = { nodeSelectorTerms: [{ matchExpressions: requirements }] };
    template.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } };
  }
  template.spec.tolerations = [...template.spec.tolerations ?? [], ...tolerations];
  const notes = [`KAITO Workspace: a StatefulSet of ${count} from ${what}, node affinity on resource.labelSelector, KAITO's GPU tolerations`];
  if (ws.resource?.instanceType) notes.push(`resource.instanceType ${ws.resource.instanceType}: node auto-provisioning not emulated`);
  return { objects: [statefulSet(ws, ws.metadata!.name!, count, template, what.split(' ')[0])], expectedPods: count, notes };
}

// ---------------------------------------------------------------------------------------------
// Kthena (volcano-sh/kthena)

/**
 * The ModelServing controller creates pods itself (no workload objects): `spec.replicas` serving
 * groups (default 1); in each, for every role, `replicas` (default 1) role instances of one entry
 * pod (`entryTemplate`) and `workerReplicas` worker pods (`workerTemplate`). Every pod gets
 * `spec.schedulerName` (the examples say `volcano`: Volcano's scheduler gang-schedules them per
 * `gangPolicy`; no Volcano runs here, so the default scheduler leaves such pods alone).
 */
function kthenaModelServing(ms: KubeObject): Emulation {
  const name = ms.metadata!.name!;
  const groups = ms.spec?.replicas ?? 1;
  const roles: any[] = ms.spec?.template?.roles ?? [];
  const objects: KubeObject[] = [];
  for (let g = 0; g < groups; g++) {
    for (const role of roles) {
      for (let i = 0; i < (role.replicas ?? 1); i++) {
        const pods: Array<[string, any, string]> = [[dnsName(name, String(g), role.name, String(i), '0'), role.entryTemplate, `roles.${role.name}.entryTemplate`]];
        for (let w = 1; w <= (role.workerReplicas ?? 0); w++) pods.push([dnsName(name, String(g), role.name, String(i), String(w)), role.workerTemplate, `roles.${role.name}.workerTemplate`]);
        for (const [podName, template, templateName] of pods) {
          const t = labelled(template, ms, templateName, { 'modelserving.volcano.sh/name': name, 'modelserving.volcano.sh/role': role.name });
          if (ms.spec?.schedulerName) t.spec.schedulerName = ms.spec.schedulerName;
          objects.push({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: {
              name: podName,
              namespace: ms.metadata!.namespace,
              labels: t.metadata.labels,
              annotations: t.metadata.annotations,
              ownerReferences: [ownerRef(ms)],
            },
            spec: t.spec,
          });
        }
      }
    }
  }
  return {
    objects,
    expectedPods: objects.length,
    notes: [`Kthena ModelServing: ${groups} serving group(s), roles ${roles.map((r) => `${r.name}×${r.replicas ?? 1}(+${r.workerReplicas ?? 0} workers)`).join(', ')}, schedulerName ${ms.spec?.schedulerName ?? 'default'}`],
  };
}

// ---------------------------------------------------------------------------------------------
// Modelplane (modelplaneai/modelplane, a Crossplane composition)

/**
 * Per ModelReplica (`spec.replicas` of them, each a complete serving instance on one
 * InferenceCluster) Modelplane composes every engine: a Standalone member to a Deployment of
 * `copies` (default 1) pods from the member's `template`, a Leader/Worker pair to a
 * LeaderWorkerSet (not emulated here: no example has one). The member's `nodeSelector.devices`
 * with `claim: DRA` become DeviceRequests of the ResourceClaim the pods bind GPUs through: here a
 * ResourceClaimTemplate with one request per device (`exactly`: the DeviceClass `gpu.nvidia.com`
 * the NVIDIA driver installs, `count`, the CEL selectors), claimed by the pod and its `engine`
 * container.
 *
 * Left out, for want of the objects that drive them: Modelplane's fleet scheduler picks a pool of
 * an InferenceClass and pins pods to it with a `modelplane.ai/pool` node selector (on BYO clusters
 * the operator labels the nodes) — no InferenceClass or InferenceCluster is in the examples, so
 * no pin is added and DRA alone decides; `modelCacheRef` mounts (the ModelCache composition is not
 * in the XRD).
 */
function modelplaneModelDeployment(md: KubeObject): Emulation {
  const name = md.metadata!.name!;
  const replicas = md.spec?.replicas ?? 1;
  const engines: any[] = md.spec?.template?.spec?.engines ?? [];
  const objects: KubeObject[] = [];
  const notes: string[] = [];
  let expected = 0;
  for (let r = 0; r < replicas; r++) {
    for (const engine of engines) {
      const members: any[] = engine.members ?? [];
      const standalone = members.length === 1 && (members[0].role ?? 'Standalone') === 'Standalone';
      if (!standalone) {
        notes.push(`engine ${engine.name}: Leader/Worker (a LeaderWorkerSet) not emulated`);
        continue;
      }
      const member = members[0];
      const workload = dnsName(name, String(r), engine.name);
      const template = clone(member.template ?? { spec: { containers: [] } });
      template.spec ??= { containers: [] };
      const devices: any[] = member.nodeSelector?.devices ?? [];
      if (devices.length > 0) {
        objects.push({
          apiVersion: 'resource.k8s.io/v1',
          kind: 'ResourceClaimTemplate',
          metadata: { name: workload, namespace: md.metadata!.namespace, ownerReferences: [ownerRef(md)] },
          spec: {
            spec: {
              devices: {
                requests: devices.map((d) => ({
                  name: d.name,
                  exactly: { deviceClassName: 'gpu.nvidia.com', count: d.count ?? 1, selectors: (d.selectors ?? []).map((s: any) => ({ cel: { expression: s.cel } })) },
                })),
              },
            },
          },
        });
        template.spec.resourceClaims = [...template.spec.resourceClaims ?? [], { name: 'devices', resourceClaimTemplateName: workload }];
        for (const c of template.spec.containers ?? []) {
          if (c.name === 'engine') c.resources = { ...c.resources, claims: [...c.resources?.claims ?? [], { name: 'devices' }] };
        }
      }
      // Every pod of a member, claiming or not, tolerates the GPU taint (spec/other-seed-systems.md, "Pod wiring").
      template.spec.tolerations = [...template.spec.tolerations ?? [], { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }];
      const copies = engine.copies ?? 1;
      objects.push(deployment(md, workload, copies, template, `engines.${engine.name}.members[0]`));
      expected += copies;
    }
  }
  notes.unshift(`modelplane ModelDeployment: ${replicas} replica(s) × engines ${engines.map((e) => `${e.name}×${e.copies ?? 1}`).join(', ')}, DRA claims from nodeSelector.devices; no modelplane.ai/pool pin`);
  if (md.spec?.template?.spec?.modelCacheRef) notes.push(`modelCacheRef ${md.spec.template.spec.modelCacheRef.name}: volume not emulated`);
  return { objects, expectedPods: expected, notes };
}

// ---------------------------------------------------------------------------------------------
// FlexInfer (flexinfer/flexinfer)

/**
 * The Model controller runs the backend as a Deployment: one replica, or with `serverless.enabled`
 * (the default) `serverless.minReplicas` until traffic arrives (0 for true scale-to-zero: no pod
 * at all until a request wakes it). Its container requests `gpu.count` GPUs of `gpu.vendor`
 * (`nvidia.com/gpu` for nvidia; none for cpu) on top of `resources`; the pod gets `nodeSelector`,
 * and the tolerations — "the controller always adds a GPU-node toleration (dedicated=gpu:NoSchedule)"
 * (the CRD's description of `tolerations`) — plus `spec.tolerations`. `cache.strategy: SharedPVC`
 * mounts `cache.pvcName`. The auto-detection of GPU nodes when `nodeSelector` is unset is not
 * described in the CRD and not emulated.
 */
function flexinferModel(model: KubeObject): Emulation {
  const spec = model.spec ?? {};
  const serverless = spec.serverless?.enabled !== false;
  const replicas = serverless ? spec.serverless?.minReplicas ?? 0 : 1;
  const gpuCount = spec.gpu?.count ?? 1;
  const vendor = spec.gpu?.vendor ?? 'nvidia';
  const resources = clone(spec.resources ?? {});
  if (vendor === 'nvidia' || vendor === 'auto') {
    resources.limits = { ...resources.limits, 'nvidia.com/gpu': String(gpuCount) };
    resources.requests = { ...resources.requests, 'nvidia.com/gpu': String(gpuCount) };
  }
  const podSpec: any = {
    containers: [{ name: spec.backend ?? 'backend', image: spec.image ?? `flexinfer/${spec.backend ?? 'backend'}`, resources }],
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, ...spec.tolerations ?? []],
  };
  if (spec.nodeSelector) podSpec.nodeSelector = spec.nodeSelector;
  if (spec.cache?.strategy === 'SharedPVC' && spec.cache.pvcName) {
    podSpec.volumes = [{ name: 'model-cache', persistentVolumeClaim: { claimName: spec.cache.pvcName } }];
    podSpec.containers[0].volumeMounts = [{ name: 'model-cache', mountPath: '/models' }];
  }
  return {
    objects: [deployment(model, model.metadata!.name!, replicas, { spec: podSpec }, 'spec')],
    expectedPods: replicas,
    notes: [`FlexInfer Model: a Deployment of ${replicas}${serverless ? ` (serverless, minReplicas ${spec.serverless?.minReplicas ?? 0})` : ''}, ${gpuCount} ${vendor} GPU(s), toleration dedicated=gpu`],
  };
}
