import { DynamoComponent, DynamoGraph, DynamoResourceList, FRONTEND_SIDECAR_CONTAINER } from './graph';
import { PodSecurityLevel } from '../../api/pod-security-level';
import { DEFAULT_GPU_RESOURCE } from '../../core/defaults';
import { k8s } from '../../core/kube-api';
import type {
  DynamoGraphDeploymentV1Beta1Spec,
  DynamoGraphDeploymentV1Beta1SpecBackendFramework,
  DynamoGraphDeploymentV1Beta1SpecComponents,
  DynamoGraphDeploymentV1Beta1SpecComponentsEppConfigConfig,
  DynamoGraphDeploymentV1Beta1SpecComponentsType,
} from '../../imports/nvidia.com';
import { secureModelServerPod } from '../../provider-kit/model-server-security';

/*
 * nvidia.com/v1beta1 (Dynamo's storage version): `spec.components` is a list of named
 * components with a `type`; all pod settings live in a native `podTemplate` whose container
 * `main` receives Dynamo's defaults. The v1alpha1 concepts map as Dynamo's own conversion maps
 * them:
 *
 * - service key → component `name`; componentType/subComponentType → `type` (`worker` with
 *   subComponentType prefill/decode → `prefill`/`decode`);
 * - `resources` (`gpu` count, `gpuType`) → `main` container resources under the GPU type
 *   (`nvidia.com/gpu` when none);
 * - `extraPodSpec.mainContainer` (image, command, args, env) → the `main` container;
 *   `extraPodSpec` pod fields (nodeSelector, tolerations) → `podTemplate.spec`;
 * - `envFromSecret` → `envFrom: [{secretRef}]` of `main`; `extraPodMetadata` →
 *   `podTemplate.metadata`;
 * - `spec.pvcs` + `volumeMounts` → PVC volumes in `podTemplate.spec.volumes` (named after the
 *   claim) and `main` container mounts (read-only where the volume is, which v1alpha1 cannot say);
 *   `useAsCompilationCache` → `compilationCache: {pvcName, mountPath}` (its mount is also
 *   declared explicitly, which Dynamo accepts as its own);
 * - `frontendSidecar: {image, args, envFromSecret}` → a `sidecar-frontend` container in the pod
 *   template, named by `frontendSidecar`;
 * - `eppConfig`, `runtimeVersionOverride`, `replicas`, `multinode` (multi-node replicas, or overrides) → the same
 *   fields of the component;
 *   `sharedMemory` → `sharedMemorySize` (neither is set: Dynamo's default /dev/shm applies);
 * - `spec.envs` → `spec.env`.
 */

const MAIN_CONTAINER = 'main';

function quantities(list: DynamoResourceList): Record<string, k8s.Quantity> | undefined {
  const out: Record<string, k8s.Quantity> = {};
  // As Dynamo converts v1alpha1: the `gpu` count under `gpuType`, else under nvidia.com/gpu.
  if (list.gpu !== undefined) out[list.gpuType ?? DEFAULT_GPU_RESOURCE] = k8s.Quantity.fromString(String(list.gpu));
  if (list.memory) out.memory = k8s.Quantity.fromString(list.memory);
  if (list.cpu) out.cpu = k8s.Quantity.fromString(list.cpu);
  return Object.keys(out).length > 0 ? out : undefined;
}

function containerResources(c: DynamoComponent): k8s.ResourceRequirements | undefined {
  const limits = c.resources && quantities(c.resources.limits);
  const requests = c.resources && quantities(c.resources.requests);
  const claims = c.deviceClaims?.containerClaims;
  return limits || requests || claims ? { ...(claims && { claims }), ...(limits && { limits }), ...(requests && { requests }) } : undefined;
}

function envFrom(secret: string | undefined): k8s.EnvFromSource[] | undefined {
  return secret ? [{ secretRef: { name: secret } }] : undefined;
}

function podTemplate(c: DynamoComponent, level: PodSecurityLevel): k8s.PodTemplateSpec {
  const resources = containerResources(c);
  const mainEnvFrom = envFrom(c.envFromSecret);
  const mounts = c.volumeMounts.filter((m) => m.mountPath !== undefined);
  const main: k8s.Container = {
    name: MAIN_CONTAINER,
    image: c.image,
    ...(c.command && { command: [...c.command] }),
    ...(c.args && { args: [...c.args] }),
    ...(c.env.length > 0 && { env: [...c.env] }),
    ...(mainEnvFrom && { envFrom: mainEnvFrom }),
    ...(resources && { resources }),
    ...(mounts.length > 0 && {
      volumeMounts: mounts.map((m) => ({ name: m.claimName, mountPath: m.mountPath!, ...(m.readOnly && { readOnly: true }) })),
    }),
  };
  const containers: k8s.Container[] = [main];
  if (c.frontendSidecar) {
    const sidecarEnvFrom = envFrom(c.frontendSidecar.envFromSecret);
    containers.push({
      name: FRONTEND_SIDECAR_CONTAINER,
      image: c.frontendSidecar.image,
      args: [...c.frontendSidecar.args],
      ...(sidecarEnvFrom && { envFrom: sidecarEnvFrom }),
    });
  }
  const volumes: k8s.Volume[] = c.volumeMounts.map((m) => ({
    name: m.claimName,
    persistentVolumeClaim: { claimName: m.claimName, ...(m.readOnly && { readOnly: true }) },
  }));
  return {
    ...(c.podMetadata && { metadata: { ...c.podMetadata } }),
    // Dynamo's components discover each other through the Kubernetes API: the token stays.
    spec: secureModelServerPod({
      containers,
      ...(c.deviceClaims && { resourceClaims: c.deviceClaims.resourceClaims.map((r) => ({ ...r })) }),
      ...(c.nodeSelector && { nodeSelector: { ...c.nodeSelector } }),
      ...(c.tolerations && { tolerations: [...c.tolerations] }),
      ...(volumes.length > 0 && { volumes }),
    }, { level, callsKubernetesApi: true }),
  };
}

/** One entry of `spec.components`, its pods secured at `level`. */
export function v1beta1Component(
  c: DynamoComponent,
  level: PodSecurityLevel = PodSecurityLevel.BASELINE,
): DynamoGraphDeploymentV1Beta1SpecComponents {
  const cache = c.volumeMounts.find((m) => m.compilationCache);
  return {
    name: c.name,
    type: c.role as DynamoGraphDeploymentV1Beta1SpecComponentsType,
    replicas: c.replicas,
    ...(c.nodeCount !== undefined && { multinode: { nodeCount: c.nodeCount } }),
    podTemplate: k8s.toJson_PodTemplateSpec(podTemplate(c, level)),
    ...(c.frontendSidecar && { frontendSidecar: FRONTEND_SIDECAR_CONTAINER }),
    ...(cache && { compilationCache: { pvcName: cache.claimName, ...(cache.mountPath !== undefined && { mountPath: cache.mountPath }) } }),
    ...(c.eppConfig && { eppConfig: { config: c.eppConfig as unknown as DynamoGraphDeploymentV1Beta1SpecComponentsEppConfigConfig } }),
    ...(c.runtimeVersionOverride && { runtimeVersionOverride: c.runtimeVersionOverride }),
  };
}

/** `spec` of a nvidia.com/v1beta1 DynamoGraphDeployment. */
export function v1beta1Spec(graph: DynamoGraph): DynamoGraphDeploymentV1Beta1Spec {
  return {
    backendFramework: graph.backendFramework as DynamoGraphDeploymentV1Beta1SpecBackendFramework,
    ...(graph.env.length > 0 && { env: graph.env.map((e) => k8s.toJson_EnvVar(e)) }),
    components: graph.components.map((c) => v1beta1Component(c, graph.podSecurity)),
  };
}
