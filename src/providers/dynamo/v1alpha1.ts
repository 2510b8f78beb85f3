import type { DynamoComponent, DynamoGraph, DynamoResourceList, DynamoVolumeMount } from './graph';
import { PodSecurityLevel } from '../../api/pod-security-level';
import { k8s } from '../../core/kube-api';
import type {
  DynamoGraphDeploymentSpec,
  DynamoGraphDeploymentSpecBackendFramework,
  DynamoGraphDeploymentSpecServices,
  DynamoGraphDeploymentSpecServicesEppConfigConfig,
  DynamoGraphDeploymentSpecServicesResources,
  DynamoGraphDeploymentSpecServicesResourcesLimits,
} from '../../imports/nvidia.com';
import { modelServerPodSecurityContext, restrictedVolumes, secureModelServerContainer } from '../../provider-kit/model-server-security';

/*
 * nvidia.com/v1alpha1 (the graphs of Dynamo before 1.5): `spec.services` is a map of service key to service;
 * pod settings are per-service fields (`resources`, `envFromSecret`, `volumeMounts`,
 * `frontendSidecar`) plus `extraPodSpec` (a PodSpec with a `mainContainer`); claims are declared
 * in `spec.pvcs` and mounted by name through `volumeMounts`.
 */

function resourceList(list: DynamoResourceList): DynamoGraphDeploymentSpecServicesResourcesLimits | undefined {
  const out = {
    // Dynamo's `gpu` is a count as a string, requested as `gpuType`, else as nvidia.com/gpu.
    ...(list.gpu !== undefined && { gpu: String(list.gpu) }),
    ...(list.gpuType !== undefined && { gpuType: list.gpuType }),
    ...(list.memory && { memory: list.memory }),
    ...(list.cpu && { cpu: list.cpu }),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

function resources(c: DynamoComponent): DynamoGraphDeploymentSpecServicesResources | undefined {
  if (!c.resources) return undefined;
  // AI Runway writes both maps even when empty; an empty map means the same and is left out.
  const limits = resourceList(c.resources.limits);
  const requests = resourceList(c.resources.requests);
  return limits || requests ? { ...(limits && { limits }), ...(requests && { requests }) } : undefined;
}

/**
 * Dynamo's `volumeMounts` have no read-only flag (AI Runway writes `readOnly`, which the API
 * server drops, so its read-only volumes are mounted writable). A read-only volume is therefore
 * mounted through `extraPodSpec` instead: a read-only PVC volume and main-container mount.
 */
function writableMounts(c: DynamoComponent): DynamoVolumeMount[] {
  return c.volumeMounts.filter((m) => !m.readOnly);
}

function readOnlyMounts(c: DynamoComponent): DynamoVolumeMount[] {
  return c.volumeMounts.filter((m) => m.readOnly && m.mountPath !== undefined);
}

/** `extraPodSpec.mainContainer`: a core Container without a name (it is always the main one). */
function mainContainer(c: DynamoComponent, level: PodSecurityLevel): Record<string, unknown> {
  const volumeMounts: k8s.VolumeMount[] = readOnlyMounts(c).map((m) => ({ name: m.claimName, mountPath: m.mountPath!, readOnly: true }));
  const { name: _name, ...json } = k8s.toJson_Container(secureModelServerContainer({
    name: 'main',
    image: c.image,
    ...(c.command && { command: [...c.command] }),
    ...(c.args && { args: [...c.args] }),
    ...(c.env.length > 0 && { env: [...c.env] }),
    ...(volumeMounts.length > 0 && { volumeMounts }),
    ...(c.deviceClaims && { resources: { claims: c.deviceClaims.containerClaims } }),
  }, level)) as Record<string, unknown>;
  return json;
}

/**
 * `extraPodSpec`: the main container and the pod's settings, secured at `level` (the service
 * account token stays: Dynamo's components discover each other through the Kubernetes API). The
 * v1alpha1 `frontendSidecar` has no securityContext field: under "restricted" only the pod-level
 * settings reach it.
 */
function extraPodSpec(c: DynamoComponent, level: PodSecurityLevel): Record<string, unknown> {
  const volumes = [
    ...readOnlyMounts(c).map((m) => ({ name: m.claimName, persistentVolumeClaim: { claimName: m.claimName, readOnly: true } })),
    ...restrictedVolumes(level),
  ].map((v) => k8s.toJson_Volume(v));
  return {
    securityContext: k8s.toJson_PodSecurityContext(modelServerPodSecurityContext(level)),
    mainContainer: mainContainer(c, level),
    ...(c.deviceClaims && { resourceClaims: c.deviceClaims.resourceClaims.map((r) => ({ ...r })) }),
    ...(c.nodeSelector && { nodeSelector: { ...c.nodeSelector } }),
    ...(c.tolerations && { tolerations: c.tolerations.map((t) => k8s.toJson_Toleration(t)) }),
    ...(volumes.length > 0 && { volumes }),
  };
}

function componentType(c: DynamoComponent): { componentType: string; subComponentType?: string } {
  if (c.role === 'prefill' || c.role === 'decode') return { componentType: 'worker', subComponentType: c.role };
  return { componentType: c.role };
}

/** One entry of `spec.services`. */
export function v1alpha1Service(c: DynamoComponent, level: PodSecurityLevel = PodSecurityLevel.BASELINE): DynamoGraphDeploymentSpecServices {
  const res = resources(c);
  const mounts = writableMounts(c);
  return {
    ...componentType(c),
    replicas: c.replicas,
    ...(c.nodeCount !== undefined && { multinode: { nodeCount: c.nodeCount } }),
    ...(res && { resources: res }),
    ...(c.envFromSecret && { envFromSecret: c.envFromSecret }),
    ...(c.podMetadata && { extraPodMetadata: { ...c.podMetadata } }),
    extraPodSpec: extraPodSpec(c, level),
    ...(mounts.length > 0 && {
      volumeMounts: mounts.map((m) => ({
        name: m.claimName,
        ...(m.mountPath !== undefined && { mountPoint: m.mountPath }),
        ...(m.compilationCache && { useAsCompilationCache: true }),
      })),
    }),
    ...(c.frontendSidecar && {
      frontendSidecar: {
        image: c.frontendSidecar.image,
        args: [...c.frontendSidecar.args],
        ...(c.frontendSidecar.envFromSecret && { envFromSecret: c.frontendSidecar.envFromSecret }),
      },
    }),
    ...(c.eppConfig && { eppConfig: { config: c.eppConfig as unknown as DynamoGraphDeploymentSpecServicesEppConfigConfig } }),
    ...(c.runtimeVersionOverride && { runtimeVersionOverride: c.runtimeVersionOverride }),
  };
}

/** `spec` of a nvidia.com/v1alpha1 DynamoGraphDeployment. */
export function v1alpha1Spec(graph: DynamoGraph): DynamoGraphDeploymentSpec {
  const services: Record<string, DynamoGraphDeploymentSpecServices> = {};
  for (const c of graph.components) services[c.name] = v1alpha1Service(c, graph.podSecurity);
  return {
    // Other values pass through verbatim, as AI Runway writes the resolved engine.
    backendFramework: graph.backendFramework as DynamoGraphDeploymentSpecBackendFramework,
    ...(graph.env.length > 0 && { envs: graph.env.map((e) => k8s.toJson_EnvVar(e)) }),
    // Every claim is declared, pre-existing or synthesized alongside: Dynamo never creates one.
    ...(graph.claimNames.length > 0 && { pvcs: graph.claimNames.map((name) => ({ name, create: false })) }),
    services,
  };
}
