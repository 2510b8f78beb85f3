/**
 * Building and rendering field errors (the public types are in `./field-error-types`): the admission
 * webhook's messages are matched on by users and tests, so their rendering follows apimachinery.
 */
import { FieldError, FieldErrorKind } from './field-error-types';
import { didYouMean } from './suggest';

export { FieldErrorKind };
export type { FieldError };

export function invalid(path: string, value: unknown, message: string): FieldError {
  return { path, kind: FieldErrorKind.INVALID, value, message };
}

export function required(path: string, message: string): FieldError {
  return { path, kind: FieldErrorKind.REQUIRED, message };
}

export function forbidden(path: string, message: string): FieldError {
  return { path, kind: FieldErrorKind.FORBIDDEN, message };
}

export function notSupported(path: string, value: unknown, allowed: readonly string[]): FieldError {
  return {
    path,
    kind: FieldErrorKind.NOT_SUPPORTED,
    value,
    message: `supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}${didYouMean(value, allowed)}`,
  };
}

export function internalError(path: string, message: string): FieldError {
  return { path, kind: FieldErrorKind.INTERNAL, message };
}

/** Renders a value the way apimachinery does: strings quoted, numbers bare, objects as JSON. */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return '<nil>';
  return JSON.stringify(value);
}

/** `spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)`. */
export function formatFieldError(error: FieldError): string {
  switch (error.kind) {
    case FieldErrorKind.INVALID:
    case FieldErrorKind.NOT_SUPPORTED:
      return `${error.path}: ${error.kind}: ${renderValue(error.value)}: ${error.message}`;
    default:
      return `${error.path}: ${error.kind}: ${error.message}`;
  }
}

/** Joins path segments: `join('spec', 'volumes', 0)` is `spec.volumes[0]`. */
export function fieldPath(...segments: Array<string | number>): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}
