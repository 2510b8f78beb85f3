/**
 * DRA for providers of your own: the claim a pod carries for the deployment's devices, from the
 * same reader the shipped providers use (./pod-claims.ts).
 */
import { podDeviceClaims } from './pod-claims';
import type { DevicePods } from '../api/devices/devices';
import type { ResolvedDeployment } from '../api/resolved-deployment';

/** How a pod refers to its device claim. */
export interface PodDeviceClaim {
  /**
   * The name in the pod's `spec.resourceClaims` and the serving container's `resources.claims`.
   */
  readonly claimName: string;

  /** The ResourceClaimTemplate the pipeline synthesizes beside the provider's objects. */
  readonly templateName: string;
}

/**
 * For providers of your own: what a pod must carry to claim the deployment's DRA devices.
 */
export class DeviceClaims {
  /**
   * The claim the pods of `pods` carry: list `{name: claimName, resourceClaimTemplateName:
   * templateName}` in the pod's `spec.resourceClaims` and `{name: claimName}` in the serving
   * container's `resources.claims`, and request no GPU extended resource. Undefined when the
   * deployment requests no devices for those pods. Declare `supportsDeviceClaims()` true.
   */
  public static forPods(deployment: ResolvedDeployment, pods: DevicePods): PodDeviceClaim | undefined {
    const claims = podDeviceClaims({ name: deployment.name, annotations: deployment.annotations ?? {} }, pods);
    const ref = claims?.resourceClaims[0];
    return ref && { claimName: ref.name, templateName: ref.resourceClaimTemplateName };
  }

  private constructor() {}
}
