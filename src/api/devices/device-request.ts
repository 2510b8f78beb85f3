/**
 * DRA device requests (`resource.k8s.io/v1`), in one plain shape shared by every face: the typed
 * construct props render to it, the CLI reads it from the `inference.cdk8s.io/devices`
 * annotation (src/provider-kit/device-annotation.ts), and providers, the ResourceClaimTemplate and the
 * inventory check read the checked form this file produces.
 *
 * A request names a device class and a count and narrows the devices with selectors. A selector
 * is either raw CEL or one typed predicate, which renders to the CEL a user would write by hand:
 *
 * | predicate                                   | CEL                                                                   |
 * |---------------------------------------------|-----------------------------------------------------------------------|
 * | `driver: gpu.nvidia.com`                    | `device.driver == "gpu.nvidia.com"`                                   |
 * | `productName: NVIDIA H100 80GB HBM3`        | `device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100…"`   |
 * | `memoryAtLeast: 40Gi`                       | `device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0` |
 * | `attribute: d/name`, `equals: v`            | `device.attributes["d"].name == v` (string, int or bool)              |
 * | `capacity: d/name`, `atLeast: q`            | `device.capacity["d"].name.compareTo(quantity("q")) >= 0`             |
 *
 * `productName` and `memoryAtLeast` read the attribute and capacity NVIDIA's DRA driver publishes;
 * `domain` names another driver's. Every expression, typed or raw, is parsed and type-checked
 * against the device model (src/cel/device-selector.ts) before anything is written.
 */
import { FieldError, fieldPath, invalid, required } from '../../core/field-error';
import { isJsonObject } from '../../core/json-object';
import { dnsLabelErrors, dnsSubdomainErrors } from '../../core/kubernetes-names';
import { parseQuantity } from '../../core/quantity';
import { didYouMean } from '../../core/suggest';

/** One selector as written: raw CEL or exactly one typed predicate. */
export interface DeviceSelectorSpec {
  readonly cel?: string;
  readonly driver?: string;
  readonly productName?: string;
  readonly memoryAtLeast?: string;
  /** The attribute/capacity domain of `productName` and `memoryAtLeast`; default `gpu.nvidia.com`. */
  readonly domain?: string;
  /** A qualified attribute name (`gpu.nvidia.com/architecture`), with `equals`. */
  readonly attribute?: string;
  readonly equals?: string | number | boolean;
  /** A qualified capacity name (`gpu.nvidia.com/memory`), with `atLeast`. */
  readonly capacity?: string;
  readonly atLeast?: string;
}

/** One device request as written. */
export interface DeviceRequestSpec {
  readonly name: string;
  readonly deviceClassName: string;
  /** Devices of this request per pod; default 1. */
  readonly count?: number;
  readonly selectors?: readonly DeviceSelectorSpec[];
}

/** A selector after checking: its CEL, and what it asks for in words (for inventory reasons). */
export interface CheckedDeviceSelector {
  readonly expression: string;
  readonly description: string;
}

/** A request after checking, with defaults applied. */
export interface CheckedDeviceRequest {
  readonly name: string;
  readonly deviceClassName: string;
  readonly count: number;
  readonly selectors: readonly CheckedDeviceSelector[];
}

/** The domain NVIDIA's DRA driver publishes `productName` and `memory` under. */
export const DEFAULT_DEVICE_DOMAIN = 'gpu.nvidia.com';

/** Kubernetes' limits: requests per claim, selectors per request (`resource.k8s.io/v1`). */
export const MAX_DEVICE_REQUESTS = 32;
export const MAX_DEVICE_SELECTORS = 32;
/** Devices one claim can be allocated (`AllocationResultsMaxSize`): the total of the counts. */
export const MAX_ALLOCATED_DEVICES = 32;

/** The keys that choose what a selector is; exactly one per selector. */
const PREDICATE_KEYS = ['cel', 'driver', 'productName', 'memoryAtLeast', 'attribute', 'capacity'] as const;
/** Every key a selector may have: the predicates and their operands. */
const SELECTOR_KEYS = new Set<string>([...PREDICATE_KEYS, 'domain', 'equals', 'atLeast']);
const REQUEST_KEYS = new Set(['name', 'deviceClassName', 'count', 'selectors']);
/** Operands each predicate takes besides its own key. */
const OPERANDS: Record<(typeof PREDICATE_KEYS)[number], readonly string[]> = {
  cel: [],
  driver: [],
  productName: ['domain'],
  memoryAtLeast: ['domain'],
  attribute: ['equals'],
  capacity: ['atLeast'],
};

/** A C identifier of at most 32 characters: the name part of a DRA attribute or capacity. */
export const DEVICE_NAME_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/**
 * Reads and checks a list of device requests found at `path`: the checked requests, or every
 * problem with its field path (nothing is returned when anything is wrong).
 */
export function readDeviceRequests(value: unknown, path: string): { requests: CheckedDeviceRequest[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!Array.isArray(value)) {
    return { requests: [], errors: [invalid(path, value, 'must be a list of device requests ({name, deviceClassName, count, selectors})')] };
  }
  if (value.length === 0) errors.push(invalid(path, value, 'must list at least one device request, or be left out'));
  if (value.length > MAX_DEVICE_REQUESTS) {
    errors.push(invalid(path, `${value.length} requests`, `a ResourceClaim holds at most ${MAX_DEVICE_REQUESTS} device requests`));
  }
  const requests: CheckedDeviceRequest[] = [];
  const seen = new Map<string, number>();
  value.forEach((item, i) => {
    const at = fieldPath(path, i);
    const request = readRequest(item, at, errors);
    if (!request) return;
    const earlier = seen.get(request.name);
    if (earlier !== undefined) {
      errors.push(invalid(`${at}.name`, request.name, `duplicates ${fieldPath(path, earlier)}.name: request names are unique within a claim`));
    }
    seen.set(request.name, i);
    requests.push(request);
  });
  const total = requests.reduce((sum, r) => sum + r.count, 0);
  if (total > MAX_ALLOCATED_DEVICES) {
    errors.push(invalid(path, `${total} devices`, `one claim is allocated at most ${MAX_ALLOCATED_DEVICES} devices; lower the counts`));
  }
  return errors.length > 0 ? { requests: [], errors } : { requests, errors };
}

function readRequest(value: unknown, at: string, errors: FieldError[]): CheckedDeviceRequest | undefined {
  if (!isJsonObject(value)) {
    errors.push(invalid(at, value, 'must be a device request: {name, deviceClassName, count, selectors}'));
    return undefined;
  }
  const item: Record<string, any> = value;
  const before = errors.length;
  unknownKeys(item, REQUEST_KEYS, at, errors);
  const name = requiredString(item, 'name', at, errors, dnsLabelErrors, 'the request name becomes the name of the request in the ResourceClaim');
  const deviceClassName = requiredString(item, 'deviceClassName', at, errors, dnsSubdomainErrors, 'the name of a DeviceClass, such as "gpu.nvidia.com"');
  let count = 1;
  if (item.count !== undefined) {
    if (typeof item.count !== 'number' || !Number.isInteger(item.count) || item.count < 1 || item.count > MAX_ALLOCATED_DEVICES) {
      errors.push(invalid(`${at}.count`, item.count, `must be a whole number from 1 to ${MAX_ALLOCATED_DEVICES}: the devices of this request each pod claims`));
    } else {
      count = item.count;
    }
  }
  const selectors: CheckedDeviceSelector[] = [];
  if (item.selectors !== undefined) {
    if (!Array.isArray(item.selectors)) {
      errors.push(invalid(`${at}.selectors`, item.selectors, 'must be a list of selectors'));
    } else if (item.selectors.length > MAX_DEVICE_SELECTORS) {
      errors.push(invalid(`${at}.selectors`, `${item.selectors.length} selectors`, `a device request has at most ${MAX_DEVICE_SELECTORS} selectors`));
    } else {
      item.selectors.forEach((s: unknown, j: number) => {
        const selector = readSelector(s, fieldPath(`${at}.selectors`, j), errors);
        if (selector) selectors.push(selector);
      });
    }
  }
  if (errors.length > before || name === undefined || deviceClassName === undefined) return undefined;
  return { name, deviceClassName, count, selectors };
}

/** Reads one selector, renders it to CEL and checks the CEL. */
export function readSelector(value: unknown, at: string, errors: FieldError[]): CheckedDeviceSelector | undefined {
  if (!isJsonObject(value)) {
    errors.push(invalid(at, value, `must be a selector: one of ${PREDICATE_KEYS.join(', ')}`));
    return undefined;
  }
  const item: Record<string, any> = value;
  const before = errors.length;
  unknownKeys(item, SELECTOR_KEYS, at, errors);
  const given = PREDICATE_KEYS.filter((k) => item[k] !== undefined);
  if (given.length !== 1) {
    errors.push(invalid(at, item, `must have exactly one of ${PREDICATE_KEYS.join(', ')}` + (given.length > 1 ? ` (found ${given.join(', ')})` : '')));
    return undefined;
  }
  const key = given[0];
  for (const operand of ['domain', 'equals', 'atLeast']) {
    if (item[operand] !== undefined && !OPERANDS[key].includes(operand)) {
      errors.push(invalid(`${at}.${operand}`, item[operand], `does not apply to ${key}` + (OPERANDS[key].length > 0 ? `, which takes ${OPERANDS[key].join(', ')}` : '')));
    }
  }
  const rendered = renderSelector(item, key, at, errors);
  if (!rendered || errors.length > before) return undefined;
  // The selector checker (a CEL parser and type checker with Kubernetes' libraries) is loaded for
  // the first selector: most deployments and node pools have none, and every CLI start paid for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkDeviceSelector } = require('../../cel/device-selector') as typeof import('../../cel/device-selector');
  const problems = checkDeviceSelector(rendered.expression);
  if (problems.length > 0) {
    const where = key === 'cel' ? `${at}.cel` : at;
    errors.push(invalid(where, rendered.expression, `invalid CEL device selector:\n${problems.map((p) => p.formatted).join('\n')}`));
    return undefined;
  }
  return rendered;
}

type PredicateKey = (typeof PREDICATE_KEYS)[number];

function renderSelector(item: Record<string, any>, key: PredicateKey, at: string, errors: FieldError[]): CheckedDeviceSelector | undefined {
  const value = item[key];
  switch (key) {
    case 'cel':
      if (typeof value !== 'string' || value.trim() === '') {
        errors.push(invalid(`${at}.cel`, value, 'must be a non-empty CEL expression over device.driver, device.attributes and device.capacity'));
        return undefined;
      }
      return { expression: value, description: `CEL ${JSON.stringify(value)}` };
    case 'driver':
      if (!nonEmptyString(value, `${at}.driver`, errors, dnsSubdomainErrors)) return undefined;
      return { expression: `device.driver == ${celString(value)}`, description: `driver ${value}` };
    case 'productName': {
      if (!nonEmptyString(value, `${at}.productName`, errors)) return undefined;
      const domain = readDomain(item, at, errors);
      if (domain === undefined) return undefined;
      return { expression: `${attributeRef(domain, 'productName')} == ${celString(value)}`, description: `product name ${JSON.stringify(value)}` };
    }
    case 'memoryAtLeast': {
      const quantity = readQuantity(value, `${at}.memoryAtLeast`, errors);
      const domain = readDomain(item, at, errors);
      if (quantity === undefined || domain === undefined) return undefined;
      return { expression: atLeast(capacityRef(domain, 'memory'), quantity), description: `memory at least ${quantity}` };
    }
    case 'attribute': {
      const name = readQualifiedName(value, `${at}.attribute`, errors);
      const equals = item.equals;
      const literal = attributeLiteral(equals, `${at}.equals`, errors);
      if (!name || literal === undefined) return undefined;
      return { expression: `${attributeRef(name.domain, name.name)} == ${literal}`, description: `attribute ${value} equal to ${JSON.stringify(equals)}` };
    }
    case 'capacity': {
      const name = readQualifiedName(value, `${at}.capacity`, errors);
      const quantity = item.atLeast === undefined
        ? (errors.push(required(`${at}.atLeast`, 'a capacity selector needs the least quantity the device must have')), undefined)
        : readQuantity(item.atLeast, `${at}.atLeast`, errors);
      if (!name || quantity === undefined) return undefined;
      return { expression: atLeast(capacityRef(name.domain, name.name), quantity), description: `capacity ${value} at least ${quantity}` };
    }
  }
}

function attributeRef(domain: string, name: string): string {
  return `device.attributes[${celString(domain)}].${name}`;
}

function capacityRef(domain: string, name: string): string {
  return `device.capacity[${celString(domain)}].${name}`;
}

function atLeast(ref: string, quantity: string): string {
  return `${ref}.compareTo(quantity(${celString(quantity)})) >= 0`;
}

/** A CEL string literal: JSON's escapes are CEL's for the characters JSON escapes. */
function celString(text: string): string {
  return JSON.stringify(text);
}

function attributeLiteral(value: unknown, at: string, errors: FieldError[]): string | undefined {
  if (value === undefined) {
    errors.push(required(at, 'an attribute selector needs the value the attribute must equal (a string, an integer or a boolean)'));
    return undefined;
  }
  if (typeof value === 'string') return celString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  errors.push(invalid(at, value, 'must be a string, an integer or a boolean: the value types of DRA attributes (write a version comparison as cel)'));
  return undefined;
}

function readDomain(item: Record<string, any>, at: string, errors: FieldError[]): string | undefined {
  if (item.domain === undefined) return DEFAULT_DEVICE_DOMAIN;
  return nonEmptyString(item.domain, `${at}.domain`, errors, dnsSubdomainErrors) ? item.domain : undefined;
}

/** `domain/name`: a DNS subdomain, `/`, and a C identifier (the DRA `QualifiedName`, with its domain required). */
function readQualifiedName(value: unknown, at: string, errors: FieldError[]): { domain: string; name: string } | undefined {
  if (typeof value !== 'string') {
    errors.push(invalid(at, value, 'must be a qualified name such as "gpu.nvidia.com/architecture"'));
    return undefined;
  }
  const slash = value.indexOf('/');
  const domain = slash < 0 ? '' : value.slice(0, slash);
  const name = slash < 0 ? value : value.slice(slash + 1);
  const problems = [
    ...(domain === '' ? ['needs the domain of the driver that publishes it, then "/"'] : dnsSubdomainErrors(domain).map((p) => `domain ${p}`)),
    ...(DEVICE_NAME_IDENTIFIER.test(name) ? [] : ['the name after "/" must be a C identifier of at most 32 characters']),
  ];
  if (problems.length > 0) {
    errors.push(invalid(at, value, `must be a qualified name such as "gpu.nvidia.com/architecture": ${problems.join('; ')}`));
    return undefined;
  }
  return { domain, name };
}

function readQuantity(value: unknown, at: string, errors: FieldError[]): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || parseQuantity(text) === undefined) {
    errors.push(invalid(at, value, 'must be a Kubernetes quantity such as "40Gi" or "80G"'));
    return undefined;
  }
  return text;
}

function requiredString(
  item: Record<string, any>, key: string, at: string, errors: FieldError[], rule: (v: string) => string[], what: string,
): string | undefined {
  if (item[key] === undefined) {
    errors.push(required(`${at}.${key}`, what));
    return undefined;
  }
  return nonEmptyString(item[key], `${at}.${key}`, errors, rule) ? item[key] : undefined;
}

function nonEmptyString(value: unknown, at: string, errors: FieldError[], rule?: (v: string) => string[]): value is string {
  if (typeof value !== 'string' || value === '') {
    errors.push(invalid(at, value, 'must be a non-empty string'));
    return false;
  }
  const problems = rule ? rule(value) : [];
  if (problems.length > 0) {
    errors.push(invalid(at, value, problems.join('; ')));
    return false;
  }
  return true;
}

function unknownKeys(item: Record<string, unknown>, known: ReadonlySet<string>, at: string, errors: FieldError[]): void {
  for (const key of Object.keys(item)) {
    if (!known.has(key)) errors.push(invalid(`${at}.${key}`, item[key], `unknown field; known fields: ${[...known].join(', ')}${didYouMean(key, [...known])}`));
  }
}
