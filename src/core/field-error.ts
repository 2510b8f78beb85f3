/**
 * Field errors in the shape of Kubernetes' `field.Error`: the admission webhook's messages are
 * matched on by users and tests, so the kinds and their rendering follow apimachinery.
 */
export enum FieldErrorKind {
  INVALID = 'Invalid value',
  REQUIRED = 'Required value',
  FORBIDDEN = 'Forbidden',
  NOT_SUPPORTED = 'Unsupported value',
  INTERNAL = 'Internal error',
}

export interface FieldError {
  /** Dotted field path, e.g. `spec.scaling.replicas` or `spec.model.storage.volumes[0].name`. */
  readonly path: string;
  readonly kind: FieldErrorKind;
  /** The offending value (omitted for Required and Forbidden). */
  readonly value?: unknown;
  /** What is wrong and what is allowed. */
  readonly message: string;
}

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
    message: `supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
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
