/**
 * KAITO node auto-provisioning (NAP): when KAITO creates nodes itself, a Workspace names the node
 * SKU in `resource.instanceType`; with bring-your-own nodes that field must stay empty.
 *
 * AI Runway's KAITO provider reads this from its process environment
 * (`AIRUNWAY_KAITO_NODE_AUTO_PROVISIONING`, `..._GPU_INSTANCE_TYPE`, `..._CPU_INSTANCE_TYPE`) at
 * run time. At build time the environment of whoever runs `synth` is not a fact about the target
 * cluster, so the instance types are explicit settings of the ProviderRegistry instead.
 */

/**
 * Node SKUs for KAITO node auto-provisioning. Setting one means KAITO provisions nodes for that
 * kind of deployment; leaving both unset is the bring-your-own-nodes setup that AI Runway's
 * KAITO installation uses (`disableNodeAutoProvisioning=true`).
 */
export interface KaitoNodeProvisioning {
  /**
   * `resource.instanceType` of Workspaces whose deployment requests GPUs
   * (`spec.resources.gpu.count > 0`), e.g. `Standard_NC24ads_A100_v4`.
   * @default - no instanceType (bring-your-own GPU nodes)
   */
  readonly gpuInstanceType?: string;
  /**
   * `resource.instanceType` of Workspaces whose deployment requests no GPUs.
   * @default - no instanceType (bring-your-own CPU nodes)
   */
  readonly cpuInstanceType?: string;
}

/** The instance type for a deployment with or without GPUs, or undefined (no NAP for it). */
export function kaitoInstanceType(provisioning: KaitoNodeProvisioning, hasGpu: boolean): string | undefined {
  const value = hasGpu ? provisioning.gpuInstanceType : provisioning.cpuInstanceType;
  return value?.trim() || undefined;
}
