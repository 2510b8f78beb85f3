/**
 * Evaluating a device selector against a described device, as the scheduler does when it
 * allocates devices: the selector is checked first (src/cel/device-selector.ts), then evaluated
 * with `device` bound to the description. Used to check device requests against a declared
 * node inventory.
 *
 * A device is described as a ResourceSlice lists it, in plain values: attribute and capacity
 * names are qualified (`gpu.nvidia.com/productName`) or bare, which means the driver's domain;
 * attribute values are strings, integers, booleans, or `{ version: '1.2.3' }` for versions
 * (semver.org 2.0.0); capacities are quantities (`'80Gi'`). The selector sees them grouped by
 * domain: `device.attributes["gpu.nvidia.com"].productName`.
 */
import type { CelError } from '../cel/cel-error';
import { compileDeviceSelector } from '../cel/device-selector';
import { celModules } from '../cel/kubernetes-libraries';
import { planSelector, selectorRuntime, SelectorProgram } from '../cel/selector-runtime';
import { parseSemver, semverText } from '../cel/semver';
import { parseQuantity, quantityToDecimalString } from '../core/quantity';

/** The value of a device attribute. */
export type DeviceAttributeValue = string | number | bigint | boolean | { readonly version: string };

/** A device, as a ResourceSlice describes it. */
export interface DeviceDescription {
  /** The driver's name, which is also the domain of bare attribute and capacity names. */
  readonly driver: string;
  /** Attributes by qualified (`domain/name`) or bare name. */
  readonly attributes?: Readonly<Record<string, DeviceAttributeValue>>;
  /** Capacities by qualified or bare name, as quantities (`'80Gi'`, `4`). */
  readonly capacity?: Readonly<Record<string, string | number>>;
}

/** Whether the device matches, or why the selector could not say. */
export type DeviceSelectorEvaluation =
  | { readonly matches: boolean; readonly error?: undefined; readonly selectorErrors?: undefined }
  | {
    readonly matches?: undefined;
    /** The selector's problems (formatted), the device's, or the evaluation's error. */
    readonly error: string;
    /** The selector's problems, when it does not check. */
    readonly selectorErrors?: readonly CelError[];
  };

/** How many compiled selectors are kept (an inventory evaluates each selector on many devices). */
const CACHE_SIZE = 256;
const programs = new Map<string, SelectorProgram | { errors: CelError[] }>();

/** A C identifier, optionally qualified by a domain: Kubernetes' `QualifiedName` of attributes and capacities. */
const QUALIFIED_NAME = /^(?:([^/]+)\/)?([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * Evaluates a selector against a device: `{ matches }`, or `{ error }` when the selector does not
 * check, the description is invalid, or evaluation fails (a missing attribute, a non-bool result,
 * the step budget) — the scheduler aborts allocation in those cases.
 */
export function evaluateDeviceSelector(expression: string, device: DeviceDescription): DeviceSelectorEvaluation {
  const program = compiled(expression);
  if ('errors' in program) {
    return { error: program.errors.map((e) => e.formatted).join('\n'), selectorErrors: program.errors };
  }
  let value: unknown;
  try {
    value = selectorRuntime().run(program, deviceValue(device));
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  const { cel } = celModules();
  if (cel.isCelError(value)) {
    // Kubernetes' wording for a missing key.
    return { error: value.message.replace(/^field not found: /, 'no such key: ') };
  }
  if (typeof value !== 'boolean') {
    return { error: `the selector evaluated to ${describe(value)}, not a bool` };
  }
  return { matches: value };
}

function compiled(expression: string): SelectorProgram | { errors: CelError[] } {
  const known = programs.get(expression);
  if (known) {
    return known;
  }
  const checked = compileDeviceSelector(expression);
  const program = 'errors' in checked ? { errors: checked.errors } : planSelector(checked);
  if (programs.size >= CACHE_SIZE) {
    programs.delete(programs.keys().next().value!);
  }
  programs.set(expression, program);
  return program;
}

/** The `device` variable: a map with the attributes and capacities grouped by domain. */
function deviceValue(device: DeviceDescription): Map<string, unknown> {
  if (!device || typeof device.driver !== 'string' || device.driver === '') {
    throw new Error("the device has no 'driver'");
  }
  const runtime = selectorRuntime();
  const attributes = grouped(device.driver, 'attribute', device.attributes ?? {}, (name, v) => attributeValue(name, v, runtime.semver));
  const capacity = grouped(device.driver, 'capacity', device.capacity ?? {}, (name, v) => {
    const q = typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
    if (!q) {
      throw new Error(`capacity '${name}' (${JSON.stringify(v)}) is not a quantity`);
    }
    return runtime.quantity(quantityToDecimalString(q));
  });
  return new Map<string, unknown>([
    ['driver', device.driver],
    ['attributes', attributes],
    ['capacity', capacity],
  ]);
}

/** Entries grouped by domain: bare names go to the driver's domain. */
function grouped<T>(
  driver: string, what: string, entries: Readonly<Record<string, T>>, convert: (name: string, v: T) => unknown,
): Map<string, Map<string, unknown>> {
  const out = new Map<string, Map<string, unknown>>();
  for (const [name, v] of Object.entries(entries)) {
    const m = QUALIFIED_NAME.exec(name);
    if (!m) {
      throw new Error(`${what} name '${name}' is not a C identifier, optionally after a domain and '/'`);
    }
    const domain = m[1] ?? driver;
    const inDomain = out.get(domain) ?? new Map<string, unknown>();
    if (inDomain.has(m[2])) {
      throw new Error(`${what} '${m[2]}' of domain '${domain}' is given twice`);
    }
    inDomain.set(m[2], convert(name, v));
    out.set(domain, inDomain);
  }
  return out;
}

function attributeValue(name: string, v: DeviceAttributeValue, semver: (text: string) => unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      if (v < -(2n ** 63n) || v >= 2n ** 63n) {
        throw new Error(`attribute '${name}' (${v}) is beyond int64`);
      }
      return v;
    case 'number':
      if (!Number.isSafeInteger(v)) {
        throw new Error(`attribute '${name}' (${v}) is not an integer`);
      }
      return BigInt(v);
    default: {
      const parsed = v && typeof v === 'object' && typeof v.version === 'string' ? parseSemver(v.version) : undefined;
      if (!parsed) {
        throw new Error(`attribute '${name}' (${JSON.stringify(v)}) is not a string, integer, boolean or { version } with a semver.org 2.0.0 version`);
      }
      return semver(semverText(parsed));
    }
  }
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return `the int ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number') return `the double ${value}`;
  return value === null ? 'null' : `a value of type ${typeof value}`;
}
