/**
 * A member's `nodeSelector.devices` rendered from the project's one DRA device-request
 * definition (src/api/devices/device-request.ts): the same checked requests that become a
 * ResourceClaimTemplate for the other targets become modelplane's per-node device requests here,
 * selector for selector (each selector's checked CEL `expression`).
 *
 * What does not carry over, and why:
 *
 * - `deviceClassName`: modelplane's request has no class. Its scheduler evaluates the selectors
 *   against the devices an InferenceClass declares, and the claim it composes on the workload
 *   cluster takes the class of the device that matched (`InferenceClass.spec.devices[].deviceClassName`).
 *   The class is therefore the platform's choice, made in the InferenceClass.
 * - Limits: modelplane is stricter than DRA in two places (16 requests per member instead of 32,
 *   8 selectors per request instead of 32), requires at least one selector per request (its XRD
 *   refuses an unselective request, which would claim an arbitrary device), and caps a CEL
 *   expression at 10240 characters. `deviceRequestLimitErrors` reports each at the request that
 *   breaks it. DRA's own limits (count ≤ 32 per request and per claim, unique DNS-label names)
 *   are already stricter than modelplane's (count ≤ 64, names of 1–63 characters).
 */
import { MAX_DEVICE_REQUESTS, MAX_DEVICE_SELECTORS, MAX_SELECTOR_CEL_LENGTH } from './limits';
import type { CheckedDeviceRequest } from '../api/devices/device-request';
import { FieldError, fieldPath, invalid, required } from '../core/field-error';

/** One `nodeSelector.devices[]` entry in the XRD's JSON shape. */
export interface NodeSelectorDevice {
  readonly name: string;
  readonly count: number;
  readonly selectors: Array<{ cel: string }>;
}

/** The devices of a member, in request order, each selector's CEL verbatim. */
export function nodeSelectorDevices(requests: readonly CheckedDeviceRequest[]): NodeSelectorDevice[] {
  return requests.map((r) => ({
    name: r.name,
    count: r.count,
    selectors: r.selectors.map((s) => ({ cel: s.expression })),
  }));
}

/**
 * Where checked requests break modelplane's limits, each at the request's path under `path`
 * (the list's own path for too many requests).
 */
export function deviceRequestLimitErrors(requests: readonly CheckedDeviceRequest[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (requests.length > MAX_DEVICE_REQUESTS) {
    errors.push(invalid(path, `${requests.length} requests`, `modelplane accepts at most ${MAX_DEVICE_REQUESTS} device requests per pod (member)`));
  }
  requests.forEach((r, i) => {
    const at = fieldPath(path, i);
    if (r.selectors.length === 0) {
      errors.push(required(`${at}.selectors`,
        'modelplane needs at least one selector per device request: its scheduler matches the request to InferenceClass devices by its selectors, ' +
          `and its XRD refuses a request without one, which would claim an arbitrary device (deviceClassName ${JSON.stringify(r.deviceClassName)} is not ` +
          'part of a modelplane request; the InferenceClass names the class). Add one, e.g. {driver: gpu.nvidia.com} or {productName: ...}'));
    } else if (r.selectors.length > MAX_DEVICE_SELECTORS) {
      errors.push(invalid(`${at}.selectors`, `${r.selectors.length} selectors`,
        `modelplane accepts at most ${MAX_DEVICE_SELECTORS} selectors per device request; combine conditions with && in one cel selector`));
    }
    r.selectors.forEach((s, j) => {
      if (s.expression.length > MAX_SELECTOR_CEL_LENGTH) {
        errors.push(invalid(fieldPath(`${at}.selectors`, j), `${s.expression.length} characters`,
          `modelplane accepts selector CEL of at most ${MAX_SELECTOR_CEL_LENGTH} characters`));
      }
    });
  });
  return errors;
}
