/**
 * KAITO node auto-provisioning (NAP): when KAITO creates nodes itself, a Workspace names the node
 * SKU in `resource.instanceType`; with bring-your-own nodes that field must stay empty.
 *
 * AI Runway's KAITO provider reads this from its process environment at run time. At build time
 * the environment of whoever runs `synth` is not a fact about the target cluster, so the shipped
 * `kaitoTranslator` never reads it: the instance types are explicit options of
 * `createKaitoTranslator`, and `kaitoNodeProvisioningFromEnv` turns the upstream variables into
 * those options for callers (such as a CLI) that choose to honour them.
 */

/** Enables node auto-provisioning when set to a truthy value (see `NAP_TRUTHY_VALUES`). */
export const KAITO_NODE_AUTO_PROVISIONING_ENV = 'AIRUNWAY_KAITO_NODE_AUTO_PROVISIONING';
/** `resource.instanceType` for deployments that request GPUs. */
export const KAITO_GPU_INSTANCE_TYPE_ENV = 'AIRUNWAY_KAITO_GPU_INSTANCE_TYPE';
/** `resource.instanceType` for deployments without GPUs. */
export const KAITO_CPU_INSTANCE_TYPE_ENV = 'AIRUNWAY_KAITO_CPU_INSTANCE_TYPE';

/** Values (trimmed, case-insensitive) of the NAP variable that turn it on. */
export const NAP_TRUTHY_VALUES: readonly string[] = ['1', 't', 'true', 'y', 'yes', 'on', 'enabled'];

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

/**
 * Reads the AI Runway KAITO provider's NAP variables: instance types only when
 * `AIRUNWAY_KAITO_NODE_AUTO_PROVISIONING` is truthy, each trimmed and omitted when empty.
 */
export function kaitoNodeProvisioningFromEnv(env: Readonly<Record<string, string | undefined>>): KaitoNodeProvisioning {
  const enabled = NAP_TRUTHY_VALUES.includes((env[KAITO_NODE_AUTO_PROVISIONING_ENV] ?? '').trim().toLowerCase());
  if (!enabled) return {};
  const gpu = (env[KAITO_GPU_INSTANCE_TYPE_ENV] ?? '').trim();
  const cpu = (env[KAITO_CPU_INSTANCE_TYPE_ENV] ?? '').trim();
  return {
    ...(gpu ? { gpuInstanceType: gpu } : {}),
    ...(cpu ? { cpuInstanceType: cpu } : {}),
  };
}

/** The instance type for a deployment with or without GPUs, or undefined (no NAP for it). */
export function kaitoInstanceType(provisioning: KaitoNodeProvisioning, hasGpu: boolean): string | undefined {
  const value = hasGpu ? provisioning.gpuInstanceType : provisioning.cpuInstanceType;
  return value?.trim() || undefined;
}
