/**
 * How a pod claims its DRA devices: one ResourceClaimTemplate per component (the aggregated
 * serving pods, or the prefill and the decode pods), which DRA turns into a fresh ResourceClaim
 * for every pod; the pod names it in `spec.resourceClaims` and the serving container consumes
 * the whole claim through `resources.claims`. Claimed GPUs replace the `<gpu.type>` extended
 * resource: a pod that claims its devices requests none.
 *
 * Plain data, shared by every provider's translator and by the templates themselves
 * (src/dra/claim-templates.ts).
 */
import { DeviceComponent, deviceRequestsOf } from './device-annotation';
import type { CheckedDeviceRequest } from '../api/devices/device-request';

/** The name the pod and its container use for the claim (`spec.resourceClaims[].name`). */
export const POD_DEVICE_CLAIM_NAME = 'devices';

/** What a provider puts in a pod that claims devices, in the core/v1 JSON shape. */
export interface PodDeviceClaims {
  /** `spec.resourceClaims` of the pod. */
  readonly resourceClaims: Array<{ name: string; resourceClaimTemplateName: string }>;
  /** `resources.claims` of the serving container. */
  readonly containerClaims: Array<{ name: string }>;
}

/** `<md>-devices`, or `<md>-prefill-devices` / `<md>-decode-devices` for a disaggregated component. */
export function claimTemplateName(deploymentName: string, component: DeviceComponent): string {
  return component === 'resources' ? `${deploymentName}-devices` : `${deploymentName}-${component}-devices`;
}

/**
 * The claims of the pods of `component`, or undefined when the deployment claims no devices for
 * them (the pods then request GPUs as an extended resource).
 */
export function podDeviceClaims(
  md: { readonly name: string; readonly annotations?: Readonly<Record<string, string>> },
  component: DeviceComponent,
): PodDeviceClaims | undefined {
  if (deviceRequestsOf(md.annotations, component).length === 0) return undefined;
  return {
    resourceClaims: [{ name: POD_DEVICE_CLAIM_NAME, resourceClaimTemplateName: claimTemplateName(md.name, component) }],
    containerClaims: [{ name: POD_DEVICE_CLAIM_NAME }],
  };
}

/** One request of a claim's `devices.requests`, in the `resource.k8s.io/v1` JSON shape. */
export interface ClaimDeviceRequest {
  readonly name: string;
  readonly exactly: {
    readonly deviceClassName: string;
    readonly count: number;
    readonly selectors?: Array<{ readonly cel: { readonly expression: string } }>;
  };
}

/** `spec.spec.devices` of the ResourceClaimTemplate: one `exactly` request per device request. */
export function claimDevices(requests: readonly CheckedDeviceRequest[]): { requests: ClaimDeviceRequest[] } {
  return {
    requests: requests.map((r) => ({
      name: r.name,
      exactly: {
        deviceClassName: r.deviceClassName,
        count: r.count,
        ...(r.selectors.length > 0 && { selectors: r.selectors.map((s) => ({ cel: { expression: s.expression } })) }),
      },
    })),
  };
}
