/**
 * One reading of a synthesized DynamoGraphDeployment for both API versions, so that the same
 * test cases assert the same deployment whichever shape carries it. Reading a v1beta1 object
 * also checks the wiring that shape needs (every mount has its PVC volume, the sidecar named by
 * `frontendSidecar` exists, the compilation cache is mounted).
 */

export interface MountView {
  readonly claim: string;
  readonly mountPath?: string;
  readonly readOnly: boolean;
  readonly compilationCache: boolean;
}

export interface SidecarView {
  readonly image: string;
  readonly args: string[];
  readonly envFromSecret?: string;
}

export interface ServiceView {
  readonly name: string;
  /** frontend, epp, worker, prefill, decode. */
  readonly type: string;
  readonly replicas: number;
  readonly image: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly env?: any[];
  readonly envFromSecret?: string;
  /** Limits and requests with Kubernetes resource names (Dynamo's `gpu` under its `gpuType`, else nvidia.com/gpu). */
  readonly resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  /** Sorted by claim. */
  readonly mounts: MountView[];
  readonly nodeSelector?: Record<string, string>;
  readonly tolerations?: any[];
  readonly podMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  readonly sidecar?: SidecarView;
  readonly eppConfig?: any;
  readonly runtimeVersionOverride?: string;
  readonly multinode?: any;
}

export interface GraphView {
  readonly apiVersion: string;
  readonly backendFramework: string;
  readonly names: string[];
  readonly env?: any[];
  /** Every claim the graph refers to, sorted. */
  readonly claims: string[];
  service(name: string): ServiceView;
}

function sortMounts(mounts: MountView[]): MountView[] {
  return [...mounts].sort((a, b) => (a.claim < b.claim ? -1 : a.claim > b.claim ? 1 : 0));
}

/** Dynamo's v1alpha1 `gpu` count under its Kubernetes resource name: `gpuType`, else nvidia.com/gpu. */
function renameGpu(list: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!list) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(list)) {
    if (k === 'gpuType') continue;
    out[k === 'gpu' ? list.gpuType ?? 'nvidia.com/gpu' : k] = v;
  }
  return out;
}

function alphaService(name: string, svc: any): ServiceView {
  const eps = svc.extraPodSpec ?? {};
  const main = eps.mainContainer ?? {};
  const readOnlyVolumes = new Map<string, any>((eps.volumes ?? []).map((v: any) => [v.name, v]));
  const mounts: MountView[] = [
    ...(svc.volumeMounts ?? []).map((m: any) => ({
      claim: m.name,
      ...(m.mountPoint !== undefined && { mountPath: m.mountPoint }),
      readOnly: false,
      compilationCache: m.useAsCompilationCache === true,
    })),
    ...(main.volumeMounts ?? []).map((m: any) => {
      const volume = readOnlyVolumes.get(m.name);
      if (!volume || volume.persistentVolumeClaim?.claimName !== m.name) throw new Error(`${name}: mount ${m.name} has no PVC volume`);
      return { claim: m.name, mountPath: m.mountPath, readOnly: m.readOnly === true, compilationCache: false };
    }),
  ];
  return {
    name,
    type: svc.subComponentType ?? svc.componentType,
    replicas: svc.replicas,
    image: main.image,
    command: main.command,
    args: main.args,
    env: main.env,
    envFromSecret: svc.envFromSecret,
    resources: svc.resources && {
      ...(svc.resources.limits && { limits: renameGpu(svc.resources.limits) }),
      ...(svc.resources.requests && { requests: renameGpu(svc.resources.requests) }),
    },
    mounts: sortMounts(mounts),
    nodeSelector: eps.nodeSelector,
    tolerations: eps.tolerations,
    podMetadata: svc.extraPodMetadata,
    sidecar: svc.frontendSidecar,
    eppConfig: svc.eppConfig?.config,
    runtimeVersionOverride: svc.runtimeVersionOverride,
    multinode: svc.multinode,
  };
}

function betaService(c: any): ServiceView {
  const pod = c.podTemplate?.spec ?? {};
  const containers: any[] = pod.containers ?? [];
  const main = containers.find((x) => x.name === 'main');
  if (!main) throw new Error(`${c.name}: no main container`);
  const volumes = new Map<string, any>((pod.volumes ?? []).map((v: any) => [v.name, v]));
  const mounts: MountView[] = (main.volumeMounts ?? []).map((m: any) => {
    const volume = volumes.get(m.name);
    if (!volume || volume.persistentVolumeClaim?.claimName !== m.name) throw new Error(`${c.name}: mount ${m.name} has no PVC volume`);
    if ((volume.persistentVolumeClaim.readOnly === true) !== (m.readOnly === true)) throw new Error(`${c.name}: mount ${m.name} and its volume disagree on readOnly`);
    return {
      claim: m.name,
      mountPath: m.mountPath,
      readOnly: m.readOnly === true,
      compilationCache: c.compilationCache?.pvcName === m.name,
    };
  });
  if (c.compilationCache && !mounts.some((m) => m.compilationCache && m.mountPath === c.compilationCache.mountPath)) {
    throw new Error(`${c.name}: compilationCache ${c.compilationCache.pvcName} is not mounted at its mountPath`);
  }
  let sidecar: SidecarView | undefined;
  if (c.frontendSidecar !== undefined) {
    const s = containers.find((x) => x.name === c.frontendSidecar);
    if (!s) throw new Error(`${c.name}: frontendSidecar ${c.frontendSidecar} is not a container`);
    sidecar = { image: s.image, args: s.args, ...(s.envFrom && { envFromSecret: s.envFrom[0].secretRef.name }) };
  }
  if (containers.length !== (sidecar ? 2 : 1)) throw new Error(`${c.name}: unexpected containers ${containers.map((x) => x.name)}`);
  return {
    name: c.name,
    type: c.type,
    replicas: c.replicas,
    image: main.image,
    command: main.command,
    args: main.args,
    env: main.env,
    envFromSecret: main.envFrom?.[0]?.secretRef?.name,
    resources: main.resources,
    mounts: sortMounts(mounts),
    nodeSelector: pod.nodeSelector,
    tolerations: pod.tolerations,
    podMetadata: c.podTemplate?.metadata,
    sidecar,
    eppConfig: c.eppConfig?.config,
    runtimeVersionOverride: c.runtimeVersionOverride,
    multinode: c.multinode,
  };
}

/** Reads a DynamoGraphDeployment manifest of either version. */
export function graphView(dgd: any): GraphView {
  if (dgd.apiVersion === 'nvidia.com/v1alpha1') {
    const services = dgd.spec.services ?? {};
    return {
      apiVersion: dgd.apiVersion,
      backendFramework: dgd.spec.backendFramework,
      names: Object.keys(services),
      env: dgd.spec.envs,
      claims: (dgd.spec.pvcs ?? []).map((p: any) => {
        if (p.create !== false) throw new Error(`pvc ${p.name} is not create: false`);
        return p.name;
      }).sort(),
      service: (name) => {
        if (!services[name]) throw new Error(`no service ${name} in ${Object.keys(services)}`);
        return alphaService(name, services[name]);
      },
    };
  }
  if (dgd.apiVersion === 'nvidia.com/v1beta1') {
    const components: any[] = dgd.spec.components ?? [];
    const claims = new Set<string>();
    for (const c of components) for (const v of c.podTemplate?.spec?.volumes ?? []) claims.add(v.persistentVolumeClaim.claimName);
    return {
      apiVersion: dgd.apiVersion,
      backendFramework: dgd.spec.backendFramework,
      names: components.map((c) => c.name),
      env: dgd.spec.env,
      claims: [...claims].sort(),
      service: (name) => {
        const c = components.find((x) => x.name === name);
        if (!c) throw new Error(`no component ${name} in ${components.map((x) => x.name)}`);
        return betaService(c);
      },
    };
  }
  throw new Error(`not a DynamoGraphDeployment: ${dgd.apiVersion}`);
}
