/**
 * Whether a deployment fits a declared node inventory (src/dra/node-inventory.ts), decided at
 * build time the way the scheduler would decide it at run time, one component at a time (the
 * aggregated serving pods, or the prefill and the decode pods):
 *
 * - a pool is a candidate when its labels satisfy `spec.nodeSelector`;
 * - one pod needs its GPUs: `gpu.count` of the extended resource `gpu.type`, or, when it claims
 *   devices through DRA, every device request — `count` devices of one kind on the same node,
 *   of the request's DeviceClass (when the inventory names one), meeting every selector (each
 *   selector is evaluated against the device description, src/dra/device-evaluation.ts).
 *   Requests take devices greedily in order, as modelplane's scheduler does;
 * - pods are packed onto nodes as long as a node has what the next pod needs, and the pool fits
 *   when its nodes hold all the component's pods (its replicas).
 *
 * Each component and each deployment is checked alone: the inventory is not consumed across
 * them. Pods without GPUs or device requests are not checked. A deployment fits when every
 * checked component has at least one pool that holds all of its pods.
 */
import type { InventoryDeviceSpec, NodePoolSpec } from './node-inventory';
import type { CheckedDeviceRequest } from '../api/devices/device-request';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { FieldError, invalid } from '../core/field-error';
import type { GpuSpec } from '../core/generated/model-deployment-spec';
import { gpuTypeOf } from '../core/gpu-type';
import { componentsOf, DeviceComponent, deviceRequestsOf, DEVICES_ANNOTATION_PATH } from '../provider-kit/device-annotation';
import { podGpuCount, podsPerReplica } from '../provider-kit/multi-node-layout';

/** Pods per node are counted up to this: more than any node holds. */
const MAX_PODS_PER_NODE = 256;

/** What each pod of a component needs. */
export interface PodNeed {
  readonly component: DeviceComponent;
  /** Where the need is declared, for messages. */
  readonly path: string;
  readonly pods: number;
  readonly gpu?: { readonly resource: string; readonly count: number };
  readonly requests?: readonly CheckedDeviceRequest[];
}

/** One pool's answer for one component. */
export interface PoolFit {
  readonly pool: string;
  readonly fits: boolean;
  /** Pods of the component one node holds. */
  readonly podsPerNode: number;
  /** Why it does not fit (empty when it fits). */
  readonly reasons: readonly string[];
}

/** One component's answer over every pool. */
export interface ComponentFit {
  readonly need: PodNeed;
  readonly pools: readonly PoolFit[];
  readonly fits: boolean;
}

/** The components of a deployment that need GPUs or devices, and what each of their pods needs. */
export function podNeeds(md: ResolvedModelDeployment): PodNeed[] {
  const needs: PodNeed[] = [];
  for (const component of componentsOf(md.mode)) {
    const requests = deviceRequestsOf(md.annotations, component);
    const { gpu, replicas, path } = componentOf(md, component);
    // A multi-node replica is a group of pods, each with gpusPerNode of its GPUs.
    const pods = replicas * podsPerReplica(md, component);
    if (requests.length > 0) {
      needs.push({ component, path: `${DEVICES_ANNOTATION_PATH}.${component}`, pods, requests });
    } else if ((gpu?.count ?? 0) > 0) {
      needs.push({ component, path, pods, gpu: { resource: gpuTypeOf(gpu), count: podGpuCount(md, component) } });
    }
  }
  return needs;
}

function componentOf(md: ResolvedModelDeployment, component: DeviceComponent): { gpu?: GpuSpec; replicas: number; path: string } {
  if (component === 'resources') {
    const configured = md.spec.scaling?.replicas ?? 0;
    return { gpu: md.spec.resources?.gpu, replicas: configured > 0 ? configured : 1, path: 'spec.resources.gpu' };
  }
  const c = md.spec.scaling?.[component];
  return { gpu: c?.gpu, replicas: c?.replicas ?? 1, path: `spec.scaling.${component}.gpu` };
}

/** Every component's fit against every pool. */
export function fitDeployment(md: ResolvedModelDeployment, pools: readonly NodePoolSpec[]): ComponentFit[] {
  return podNeeds(md).map((need) => {
    const fits = pools.map((pool) => fitPool(md, need, pool));
    return { need, pools: fits, fits: fits.some((f) => f.fits) };
  });
}

/**
 * `InsufficientCapacity` errors, one per component that no pool holds, with each pool's reasons.
 * None when the inventory is empty (no inventory, no check).
 */
export function insufficientCapacityErrors(md: ResolvedModelDeployment, pools: readonly NodePoolSpec[]): FieldError[] {
  if (pools.length === 0) return [];
  return fitDeployment(md, pools).filter((c) => !c.fits).map((c) => invalid(
    c.need.path,
    describeNeed(c.need),
    `InsufficientCapacity: no node pool holds ${c.need.pods} ${podsWord(c.need)}: ` +
      c.pools.map((p) => `pool ${p.pool}: ${p.reasons.join('; ')}`).join('; '),
  ));
}

/** `2 × nvidia.com/gpu per pod` or `requests gpu (2 × gpu.nvidia.com) per pod`, for messages. */
export function describeNeed(need: PodNeed): string {
  if (need.gpu) return `${need.gpu.count} × ${need.gpu.resource} per pod`;
  return `requests ${need.requests!.map((r) => `${r.name} (${r.count} × ${r.deviceClassName})`).join(', ')} per pod`;
}

function podsWord(need: PodNeed): string {
  const what = need.component === 'resources' ? 'serving' : need.component;
  return `${what} pod${need.pods === 1 ? '' : 's'}`;
}

function fitPool(md: ResolvedModelDeployment, need: PodNeed, pool: NodePoolSpec): PoolFit {
  const selectorMiss = nodeSelectorMismatch(md.spec.nodeSelector, pool.labels);
  if (selectorMiss) return { pool: pool.name, fits: false, podsPerNode: 0, reasons: [selectorMiss] };
  const { podsPerNode, reason } = need.gpu ? extendedPodsPerNode(need.gpu, pool) : devicePodsPerNode(need.requests!, pool);
  if (podsPerNode === 0) return { pool: pool.name, fits: false, podsPerNode, reasons: [reason!] };
  const room = podsPerNode * pool.nodes;
  if (room < need.pods) {
    return {
      pool: pool.name,
      fits: false,
      podsPerNode,
      reasons: [`holds ${room} of the ${need.pods} pods (${pool.nodes} node${pool.nodes === 1 ? '' : 's'} × ${podsPerNode} per node)`],
    };
  }
  return { pool: pool.name, fits: true, podsPerNode, reasons: [] };
}

function nodeSelectorMismatch(
  selector: Record<string, string> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): string | undefined {
  const missing = Object.entries(selector ?? {}).filter(([k, v]) => labels?.[k] !== v);
  if (missing.length === 0) return undefined;
  return `its nodes lack the label${missing.length === 1 ? '' : 's'} ${missing.map(([k, v]) => `${k}=${v}`).join(', ')} of spec.nodeSelector`;
}

function extendedPodsPerNode(gpu: { resource: string; count: number }, pool: NodePoolSpec): { podsPerNode: number; reason?: string } {
  const perNode = pool.extendedResources?.[gpu.resource] ?? 0;
  const podsPerNode = Math.min(MAX_PODS_PER_NODE, Math.floor(perNode / gpu.count));
  if (podsPerNode > 0) return { podsPerNode };
  return {
    podsPerNode: 0,
    reason: perNode === 0 ? `its nodes have no ${gpu.resource}` : `a node has ${perNode} ${gpu.resource}, fewer than the ${gpu.count} a pod requests`,
  };
}

/** How many pods one node holds, allocating each pod's requests greedily; the reason when none. */
function devicePodsPerNode(requests: readonly CheckedDeviceRequest[], pool: NodePoolSpec): { podsPerNode: number; reason?: string } {
  const devices = pool.devices ?? [];
  // Which requests each device kind may serve does not change from pod to pod: decide it once.
  const eligible = requests.map((r) => devices.map((d) => matchDevice(r, d)));
  const left = devices.map((d) => d.count ?? 1);
  let pods = 0;
  while (pods < MAX_PODS_PER_NODE) {
    let failed: number | undefined;
    requests.forEach((r, i) => {
      if (failed !== undefined) return;
      const j = eligible[i].findIndex((m, k) => m.matches && left[k] >= r.count);
      if (j < 0) {
        failed = i;
        return;
      }
      left[j] -= r.count;
    });
    if (failed !== undefined) {
      if (pods > 0) break;
      return { podsPerNode: 0, reason: requestReason(requests[failed], devices, eligible[failed], left) };
    }
    pods++;
  }
  return { podsPerNode: pods };
}

interface DeviceMatch {
  readonly matches: boolean;
  readonly why?: string;
}

function matchDevice(r: CheckedDeviceRequest, d: InventoryDeviceSpec): DeviceMatch {
  if (d.deviceClassName !== undefined && d.deviceClassName !== r.deviceClassName) {
    return { matches: false, why: `class ${d.deviceClassName}, not ${r.deviceClassName}` };
  }
  if (r.selectors.length === 0) return { matches: true };
  // Loaded for the first selector evaluated against a node pool's devices (see device-request.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { evaluateDeviceSelector } = require('./device-evaluation') as typeof import('./device-evaluation');
  for (const [n, s] of r.selectors.entries()) {
    const result = evaluateDeviceSelector(s.expression, d);
    if (result.error !== undefined) return { matches: false, why: `selector ${n + 1} (${s.description}) fails: ${result.error.split('\n')[0]}` };
    if (!result.matches) return { matches: false, why: `selector ${n + 1} (${s.description}) is false` };
  }
  return { matches: true };
}

/**
 * Why a request finds no device on an empty node: per device kind, the predicate it fails, or
 * that too few are left (`left`: what the pod's earlier requests did not take).
 */
function requestReason(
  r: CheckedDeviceRequest,
  devices: readonly InventoryDeviceSpec[],
  matches: readonly DeviceMatch[],
  left: readonly number[],
): string {
  if (devices.length === 0) return `request ${r.name}: its nodes list no DRA devices`;
  const each = devices.map((d, k) => {
    const perNode = d.count ?? 1;
    const label = `${perNode} × ${d.driver}${d.attributes?.productName !== undefined ? ` ${String(d.attributes.productName)}` : ''}`;
    const m = matches[k];
    if (!m.matches) return `${label}: ${m.why}`;
    return left[k] < perNode
      ? `${label}: ${left[k]} left per node after the pod's earlier requests, the request needs ${r.count}`
      : `${label}: only ${perNode} per node, the request needs ${r.count}`;
  });
  return `request ${r.name} (${r.count} × ${r.deviceClassName}) matches no device of a node: ${each.join(', ')}`;
}
