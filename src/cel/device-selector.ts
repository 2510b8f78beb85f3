/**
 * Checking a DRA device selector (`DeviceSelector.cel.expression` of `resource.k8s.io/v1`) at
 * build time, as the API server checks it when a ResourceClaim is created: parsed within
 * Kubernetes' limits (src/cel/selector-parse.ts) and type-checked against the device model with
 * the standard library, the strings extension and Kubernetes' quantity and semver libraries
 * (src/cel/selector-checker.ts). Every problem comes back with its position and a message that
 * quotes the expression and points at it; nothing is thrown.
 *
 * Differences from the API server: Kubernetes' cost estimate is not applied, and functions of
 * its other CEL libraries (lists, regex `find`, URLs, IPs, CIDRs, sets) are reported as unknown.
 */
import { checkSelectorTypes } from './selector-checker';
import { DeviceSelectorError } from './selector-error';
import { ParsedSelector, parseSelector } from './selector-parse';
import { CelType } from './types';

export type { DeviceSelectorError } from './selector-error';

/** A selector that parsed and type-checked, ready to evaluate. */
export interface CheckedSelector {
  readonly parsed: ParsedSelector;
  readonly resultType: CelType;
  /** Nodes that look up a domain of `device.attributes` or `device.capacity`. */
  readonly domainLookups: readonly ParsedSelector['expr'][];
}

/**
 * The problems of a device selector: syntax errors, limits exceeded, undeclared names, unknown
 * fields of `device`, unknown functions, arguments of the wrong type, a result that is not bool.
 * Empty when the selector is valid.
 */
export function checkDeviceSelector(expression: string): DeviceSelectorError[] {
  const result = compileDeviceSelector(expression);
  return 'errors' in result ? result.errors : [];
}

/** Parses and checks a selector: the checked selector, or its problems. */
export function compileDeviceSelector(expression: string): CheckedSelector | { readonly errors: DeviceSelectorError[] } {
  const { parsed, error } = parseSelector(expression);
  if (!parsed) {
    return { errors: [error] };
  }
  const check = checkSelectorTypes(parsed);
  if (check.errors.length > 0) {
    return { errors: check.errors };
  }
  return { parsed, resultType: check.resultType, domainLookups: check.domainLookups };
}
