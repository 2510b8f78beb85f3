/**
 * Checking a DRA device selector (`DeviceSelector.cel.expression` of `resource.k8s.io/v1`) at
 * build time, as the API server checks it when a ResourceClaim is created: parsed within
 * Kubernetes' limits (src/cel/parse.ts, with `cel.bind`) and type-checked (src/cel/checker.ts)
 * with the Kubernetes library against one variable, `device`:
 *
 * - `device.driver`: string
 * - `device.attributes`: map(string, map(string, dyn)) — by domain, then attribute name; the
 *   values are strings, ints, bools or versions, which only the device knows, so they are `dyn`
 * - `device.capacity`: map(string, map(string, kubernetes.Quantity))
 *
 * (Kubernetes 1.35 declares `device.allowMultipleAllocations` only behind the alpha
 * DRAConsumableCapacity gate; a default API server refuses it, so it is not declared here.)
 * The result must be bool (or `dyn`, checked when evaluated). Every problem comes back with its
 * position and a message that quotes the expression and points at it; nothing is thrown.
 *
 * Differences from the API server: Kubernetes' cost estimate is not applied, and functions of
 * its other CEL libraries (lists, regex `find`, URLs, IPs, CIDRs, sets) are reported as unknown.
 */
import { CelExpr } from './ast';
import { CelError, celError } from './cel-error';
import { CEL_MAX_PROBLEMS, CelCheckEnvironment, checkCel } from './checker';
import { DEVICE_SELECTOR_LENGTH, ParsedCel, parseCel, skipBlanks } from './parse';
import { CelType, DYN, isDynamic, mapOf, QUANTITY, STRING, typeName } from './types';

/** The `device` variable and its fields. */
const DEVICE: CelType = {
  kind: 'record',
  name: 'device',
  fields: new Map<string, CelType>([
    ['driver', STRING],
    ['attributes', { kind: 'map', key: STRING, value: mapOf(STRING, DYN), domains: true }],
    ['capacity', { kind: 'map', key: STRING, value: mapOf(STRING, QUANTITY), domains: true }],
  ]),
};

const DEVICE_SELECTORS: CelCheckEnvironment = {
  subject: 'device selectors',
  variables: new Map([['device', DEVICE]]),
  library: 'kubernetes',
  undeclaredHints: new Map([['self', "(a device selector's variable is 'device')"]]),
};

/** A selector that parsed and type-checked, ready to evaluate. */
export interface CheckedSelector {
  readonly parsed: ParsedCel;
  readonly resultType: CelType;
  /** Nodes that look up a domain of `device.attributes` or `device.capacity`. */
  readonly domainLookups: readonly CelExpr[];
}

/**
 * The problems of a device selector: syntax errors, limits exceeded, undeclared names, unknown
 * fields of `device`, unknown functions, arguments of the wrong type, a result that is not bool.
 * Empty when the selector is valid.
 */
export function checkDeviceSelector(expression: string): CelError[] {
  const result = compileDeviceSelector(expression);
  return 'errors' in result ? result.errors : [];
}

/** Parses and checks a selector: the checked selector, or its problems. */
export function compileDeviceSelector(expression: string): CheckedSelector | { readonly errors: CelError[] } {
  if (typeof expression !== 'string') {
    const got = expression === null ? 'null' : typeof expression;
    return { errors: [celError('', 0, `a device selector must be a string, not ${got}`)] };
  }
  const { parsed, error } = parseCel(expression, { length: DEVICE_SELECTOR_LENGTH, bind: true });
  if (!parsed) {
    return { errors: [error] };
  }
  const check = checkCel(parsed, DEVICE_SELECTORS);
  const errors = check.problems.map((p) => p.error);
  if (check.resultType.kind !== 'bool' && !isDynamic(check.resultType) && errors.length < CEL_MAX_PROBLEMS) {
    // The whole expression is at fault: pointed at where it starts.
    errors.push(celError(expression, skipBlanks(expression, 0), `a device selector must evaluate to bool, not ${typeName(check.resultType)}`));
  }
  if (errors.length > 0) {
    return { errors };
  }
  return { parsed, resultType: check.resultType, domainLookups: check.domainLookups };
}
