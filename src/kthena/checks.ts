/**
 * Small checks the Kthena constructs share, each returning field errors at a path of the
 * synthesized object (`spec.template.roles[0].replicas`), so that a message points at the same
 * field Kthena's webhook or the API server would name. Internal: not exported from the package.
 */
import type { Duration } from 'cdk8s';
import { KthenaPodLabels } from './labels';
import { FieldError, forbidden, invalid } from '../core/field-error';
import { goDurationOf } from '../core/go-duration';
import { labelValueErrors, qualifiedNameErrors } from '../core/kubernetes-names';

/** Largest value of an `int32` field. */
export const INT32_MAX = 2_147_483_647;

/** Upper bound Kthena's CRDs put on replica counts (`maximum: 1000000`). */
export const MAX_KTHENA_REPLICAS = 1_000_000;

/**
 * `value` as a whole number from `min` to `max`, or one error saying what is allowed; nothing
 * when the value is absent (the caller decides whether absence is allowed).
 */
export function integerErrors(path: string, value: number | undefined, min: number, max: number, what = ''): FieldError[] {
  if (value === undefined) return [];
  if (Number.isInteger(value) && value >= min && value <= max) return [];
  const range = max === INT32_MAX ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return [invalid(path, value, `must be ${range}${what ? `: ${what}` : ''}`)];
}

/** A container port number (1 to 65535). */
export function portErrors(path: string, port: number | undefined): FieldError[] {
  return integerErrors(path, port, 1, 65535, 'a TCP port');
}

/**
 * Kthena's webhooks refuse a container image that is blank after trimming or contains
 * whitespace; they parse no further. The reason (`is blank`, `contains whitespace`), or undefined
 * for an image they accept. Shared with the Kthena provider.
 */
export function imageProblem(image: string): string | undefined {
  if (image.trim() === '') return 'is blank';
  if (/\s/.test(image)) return 'contains whitespace';
  return undefined;
}

/** `imageProblem` as a field error at `path`. An absent image is left to the pod's own rules. */
export function imageErrors(path: string, image: string | undefined): FieldError[] {
  const problem = image === undefined ? undefined : imageProblem(image);
  return problem ? [invalid(path, image, `Kthena refuses a container image that ${problem}`)] : [];
}

/**
 * Kthena's controller labels the pods it creates under `modelserving.volcano.sh/` (name, group,
 * role, revision), and a ModelServer pairs prefill with decode pods by two of them: a pod-template
 * label there would compete with the controller's. One error per such key of `keys`, at
 * `<path>.<key>`. Shared with the Kthena provider (`spec.podTemplate.metadata.labels`).
 */
export function controllerLabelErrors(path: string, keys: readonly string[]): FieldError[] {
  const prefix = KthenaPodLabels.KTHENA_CONTROLLER_PREFIX;
  return keys.filter((key) => key.startsWith(prefix)).map((key) => forbidden(
    `${path}.${key}`,
    `Kthena's controller owns the pod labels under ${prefix} (the ModelServer pairs prefill and decode pods by them)`,
  ));
}

/** Label keys and values in Kubernetes syntax (what the API server checks in selectors and pod metadata). */
export function labelMapErrors(path: string, labels: { [key: string]: string } | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    const keyProblems = qualifiedNameErrors(key);
    if (keyProblems.length > 0) errors.push(invalid(path, key, `label key ${keyProblems.join('; ')}`));
    const valueProblems = labelValueErrors(value);
    if (valueProblems.length > 0) errors.push(invalid(`${path}.${key}`, value, valueProblems.join('; ')));
  }
  return errors;
}

/** Milliseconds of a duration, fractions allowed (cdk8s throws on fractions unless asked not to). */
function millisOf(duration: Duration): number {
  return duration.toMilliseconds({ integral: false });
}

/**
 * A duration of at most `maxMinutes` minutes: Kthena's autoscaler webhook bounds its periods,
 * windows and holds to 30 minutes. (cdk8s durations are never negative.)
 */
export function boundedDurationErrors(path: string, duration: Duration | undefined, maxMinutes: number): FieldError[] {
  if (duration === undefined || millisOf(duration) <= maxMinutes * 60_000) return [];
  return [invalid(path, goDurationOf(duration), `must be between 0 and ${maxMinutes} minutes`)];
}

/**
 * A number for a Kubernetes quantity field (`x-kubernetes-int-or-string`): whole numbers stay
 * numbers, fractions become strings (`0.8`), because the schema accepts only integers as numbers.
 */
export function quantityValue(value: number): number | string {
  return Number.isInteger(value) ? value : String(value);
}

/** A namespace for messages: the name, or what an unset one means. */
function describeNamespace(namespace: string | undefined): string {
  return namespace === undefined ? 'no namespace (the one it is applied to)' : `namespace "${namespace}"`;
}

/**
 * Kthena resolves every reference (route to ModelServer, ModelServer to pods, policy to
 * ModelServing) in the referring object's namespace: a referent built in another one is an error.
 */
export function sameNamespaceErrors(
  path: string,
  referent: string,
  referentNamespace: string | undefined,
  referrer: string,
  referrerNamespace: string | undefined,
): FieldError[] {
  if (referentNamespace === referrerNamespace) return [];
  return [invalid(path, referent,
    `is in ${describeNamespace(referentNamespace)} but the ${referrer} in ${describeNamespace(referrerNamespace)}; Kthena looks it up in the ${referrer}'s namespace only`)];
}
