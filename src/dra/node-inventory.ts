/**
 * A declared node inventory: the cluster's node pools, how many nodes each has, and what one node
 * of the pool offers — extended resources (`nvidia.com/gpu: 8`) and DRA devices described as a
 * ResourceSlice lists them (driver, attributes, capacity), with how many of each per node. It is
 * optional and only read at build time (src/dra/capacity-fit.ts); modelplane's InferenceClass
 * describes pools the same way.
 *
 * The plain shape below is what the CLI reads from `NodePool` documents
 * (`apiVersion: inference.cdk8s.io/v1alpha1`) and what `ProviderRegistry.addNodePool` takes.
 */
import type { DeviceAttributeValue } from './device-evaluation';
import { DEVICE_NAME_IDENTIFIER } from '../api/devices/device-request';
import { parseSemver } from '../cel/semver';
import { FieldError, fieldPath, invalid, required } from '../core/field-error';
import { dnsSubdomainErrors, extendedResourceNameErrors, labelValueErrors, qualifiedNameErrors } from '../core/kubernetes-names';
import { parseQuantity } from '../core/quantity';
import { didYouMean } from '../core/suggest';

/** apiVersion and kind of a NodePool document in CLI input. */
export const NODE_POOL_API_VERSION = 'inference.cdk8s.io/v1alpha1';
export const NODE_POOL_KIND = 'NodePool';

/** DRA devices of one kind on each node of a pool. */
export interface InventoryDeviceSpec {
  /** The DRA driver that publishes the devices; the domain of their bare attribute names. */
  readonly driver: string;
  /** The DeviceClass they are claimed under; a request of another class never gets them. Unset: any class. */
  readonly deviceClassName?: string;
  /** Devices per node; default 1. */
  readonly count?: number;
  readonly attributes?: Readonly<Record<string, DeviceAttributeValue>>;
  readonly capacity?: Readonly<Record<string, string | number>>;
}

/** One node pool. */
export interface NodePoolSpec {
  readonly name: string;
  /** Nodes in the pool (its maximum when it autoscales). */
  readonly nodes: number;
  /** Labels every node carries; matched against the deployment's `spec.nodeSelector`. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Extended resources of one node (`nvidia.com/gpu: 8`). */
  readonly extendedResources?: Readonly<Record<string, number>>;
  readonly devices?: readonly InventoryDeviceSpec[];
}

/** Most pools an inventory may list: enough for any cluster, small enough to explain. */
export const MAX_NODE_POOLS = 256;

/** The problems of a pool description, with field paths under `at` (`spec` of a NodePool document). */
export function nodePoolErrors(pool: NodePoolSpec, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (pool.nodes === undefined) {
    errors.push(required(fieldPath(at, 'nodes'), 'the number of nodes in the pool'));
  } else if (typeof pool.nodes !== 'number' || !Number.isSafeInteger(pool.nodes) || pool.nodes < 0) {
    errors.push(invalid(fieldPath(at, 'nodes'), pool.nodes, 'must be a whole number of nodes, 0 or more'));
  }
  for (const [key, value] of Object.entries(pool.labels ?? {})) {
    const problems = [...qualifiedNameErrors(key), ...(typeof value === 'string' ? labelValueErrors(value) : ['the value must be a string'])];
    if (problems.length > 0) errors.push(invalid(`${at}.labels[${JSON.stringify(key)}]`, value, problems.join('; ')));
  }
  for (const [name, count] of Object.entries(pool.extendedResources ?? {})) {
    const problems = [
      ...extendedResourceNameErrors(name),
      ...(typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? [] : ['the count per node must be a whole number, 0 or more']),
    ];
    if (problems.length > 0) errors.push(invalid(`${at}.extendedResources[${JSON.stringify(name)}]`, count, problems.join('; ')));
  }
  if (pool.devices !== undefined && !Array.isArray(pool.devices)) {
    errors.push(invalid(`${at}.devices`, pool.devices, 'must be a list of devices ({driver, deviceClassName, count, attributes, capacity})'));
    return errors;
  }
  (pool.devices ?? []).forEach((d, i) => errors.push(...deviceErrors(d, fieldPath(`${at}.devices`, i))));
  return errors;
}

const DEVICE_FIELDS = new Set(['driver', 'deviceClassName', 'count', 'attributes', 'capacity']);

function deviceErrors(d: InventoryDeviceSpec, at: string): FieldError[] {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return [invalid(at, d, 'must be a device: {driver, deviceClassName, count, attributes, capacity}')];
  const errors: FieldError[] = [];
  for (const key of Object.keys(d)) {
    if (!DEVICE_FIELDS.has(key)) errors.push(invalid(`${at}.${key}`, (d as any)[key], `unknown field; known fields: ${[...DEVICE_FIELDS].join(', ')}${didYouMean(key, [...DEVICE_FIELDS])}`));
  }
  for (const key of ['attributes', 'capacity'] as const) {
    const map = d[key];
    if (map === undefined) continue;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) {
      errors.push(invalid(`${at}.${key}`, map, 'must be a mapping of names to values'));
      return errors;
    }
    for (const name of Object.keys(map)) {
      // A bare name is the driver's domain; a qualified one has a DNS-subdomain domain before '/'.
      const slash = name.indexOf('/');
      const domainOk = slash < 0 || dnsSubdomainErrors(name.slice(0, slash)).length === 0;
      if (!domainOk || !DEVICE_NAME_IDENTIFIER.test(name.slice(slash + 1))) {
        errors.push(invalid(`${at}.${key}[${JSON.stringify(name)}]`, name,
          'must be a C identifier of at most 32 characters, optionally after a domain (a DNS subdomain) and "/"'));
      }
    }
  }
  if (d.driver === undefined) errors.push(required(`${at}.driver`, 'the DRA driver that publishes the devices, such as "gpu.nvidia.com"'));
  else if (typeof d.driver !== 'string' || dnsSubdomainErrors(d.driver).length > 0) errors.push(invalid(`${at}.driver`, d.driver, 'must be a DNS subdomain'));
  if (d.deviceClassName !== undefined && (typeof d.deviceClassName !== 'string' || dnsSubdomainErrors(d.deviceClassName).length > 0)) {
    errors.push(invalid(`${at}.deviceClassName`, d.deviceClassName, 'must be a DNS subdomain'));
  }
  if (d.count !== undefined && (typeof d.count !== 'number' || !Number.isSafeInteger(d.count) || d.count < 1)) {
    errors.push(invalid(`${at}.count`, d.count, 'must be a whole number of devices per node, 1 or more'));
  }
  for (const [name, value] of Object.entries(d.attributes ?? {})) {
    if (!isAttributeValue(value)) {
      errors.push(invalid(`${at}.attributes[${JSON.stringify(name)}]`, value, 'must be a string, an integer, a boolean or {version: "<semver>"}'));
    }
  }
  for (const [name, value] of Object.entries(d.capacity ?? {})) {
    if ((typeof value !== 'string' && typeof value !== 'number') || parseQuantity(value) === undefined) {
      errors.push(invalid(`${at}.capacity[${JSON.stringify(name)}]`, value, 'must be a Kubernetes quantity such as "80Gi"'));
    }
  }
  return errors;
}

function isAttributeValue(v: unknown): boolean {
  if (typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isSafeInteger(v);
  return typeof v === 'object' && v !== null && typeof (v as any).version === 'string' && parseSemver((v as any).version) !== undefined;
}

/**
 * Reads a NodePool document (`metadata.name`, `spec` as {@link NodePoolSpec} without the name):
 * the pool, or its problems with field paths.
 */
export function readNodePoolDocument(doc: any): { pool?: NodePoolSpec; errors: FieldError[] } {
  const name = doc?.metadata?.name;
  const spec = doc?.spec;
  const errors: FieldError[] = [];
  if (typeof name !== 'string' || name === '') errors.push(required('metadata.name', 'a NodePool needs a name'));
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    errors.push(required('spec', 'a NodePool needs a spec: {nodes, labels, extendedResources, devices}'));
    return { errors };
  }
  const known = new Set(['nodes', 'labels', 'extendedResources', 'devices']);
  for (const key of Object.keys(spec)) {
    if (!known.has(key)) errors.push(invalid(`spec.${key}`, spec[key], `unknown field; known fields: ${[...known].join(', ')}${didYouMean(key, [...known])}`));
  }
  for (const key of ['labels', 'extendedResources'] as const) {
    if (spec[key] !== undefined && (typeof spec[key] !== 'object' || spec[key] === null || Array.isArray(spec[key]))) {
      errors.push(invalid(`spec.${key}`, spec[key], 'must be a mapping'));
    }
  }
  if (errors.length > 0) return { errors };
  const pool: NodePoolSpec = { name, ...spec };
  const problems = nodePoolErrors(pool, 'spec');
  return problems.length > 0 ? { errors: problems } : { pool, errors: [] };
}
