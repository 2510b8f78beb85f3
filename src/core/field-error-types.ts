/**
 * Kinds of field errors, as Kubernetes' `field.Error` names them.
 */
export enum FieldErrorKind {
  /** The value is not allowed. */
  INVALID = 'Invalid value',
  /** A value is missing. */
  REQUIRED = 'Required value',
  /** The field may not be set. */
  FORBIDDEN = 'Forbidden',
  /** The value is not one of a closed set. */
  NOT_SUPPORTED = 'Unsupported value',
  /** Something went wrong that is not the input's fault. */
  INTERNAL = 'Internal error',
}

/**
 * One problem with one field of a deployment, as Kubernetes reports it (`field.Error`):
 * `spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)`.
 */
export interface FieldError {
  /** Dotted field path, e.g. `spec.scaling.replicas` or `spec.model.storage.volumes[0].name`. */
  readonly path: string;
  /** What kind of problem. */
  readonly kind: FieldErrorKind;
  /**
   * The offending value.
   * @default - none (Required and Forbidden errors carry no value)
   */
  readonly value?: any;
  /** What is wrong and what is allowed. */
  readonly message: string;
}
