/**
 * Tolerations of InferenceCluster taints (`spec.template.spec.tolerations`). They follow the
 * Kubernetes toleration model but match the taints an InferenceCluster declares
 * (`InferenceCluster.spec.taints`), not node taints: they decide which clusters a ModelReplica may
 * be placed on, or stay on. The engine pods' own GPU toleration is modelplane's to set.
 */
import { FieldError, fieldPath, invalid, required } from '../core/field-error';

/** How a toleration matches a taint. */
export enum ModelplaneTolerationOperator {
  /** Any taint with the key (every key when the key is empty), whatever its value. */
  EXISTS = 'Exists',
  /** A taint with the key and the value. */
  EQUAL = 'Equal',
}

/** The taint effect a toleration matches. */
export enum ModelplaneTaintEffect {
  /** New ModelReplicas may be placed on the cluster. */
  NO_SCHEDULE = 'NoSchedule',
  /** Existing ModelReplicas are not drained when the taint is added. */
  NO_EXECUTE = 'NoExecute',
}

/** A toleration of an InferenceCluster taint. */
export interface ModelplaneClusterToleration {
  /**
   * Taint key.
   * @default - every key (only with `ModelplaneTolerationOperator.EXISTS`)
   */
  readonly key?: string;

  /**
   * How the toleration matches.
   * @default ModelplaneTolerationOperator.EQUAL
   */
  readonly operator?: ModelplaneTolerationOperator;

  /**
   * Taint value (only with `ModelplaneTolerationOperator.EQUAL`).
   * @default - the empty value
   */
  readonly value?: string;

  /**
   * Taint effect.
   * @default - every effect
   */
  readonly effect?: ModelplaneTaintEffect;
}

/** The XRD's rules: an Equal toleration names a key; an Exists toleration has no value. */
export function clusterTolerationErrors(tolerations: readonly ModelplaneClusterToleration[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const at = fieldPath(path, i);
    const operator = t.operator ?? ModelplaneTolerationOperator.EQUAL;
    if (operator === ModelplaneTolerationOperator.EQUAL && !t.key) {
      errors.push(required(`${at}.key`, 'an Equal toleration must name the taint key; use ModelplaneTolerationOperator.EXISTS to tolerate every key'));
    }
    if (operator === ModelplaneTolerationOperator.EXISTS && t.value !== undefined) {
      errors.push(invalid(`${at}.value`, t.value, 'an Exists toleration matches any value and must not set one'));
    }
  });
  return errors;
}

/**
 * The tolerations in the XRD's JSON shape. The operator is always written: the XRD defaults it
 * to Equal before its rules read it, so leaving it out would mean the same, but explicit output
 * says what is checked.
 */
export function clusterTolerationsJson(tolerations: readonly ModelplaneClusterToleration[]): Array<Record<string, string>> {
  return tolerations.map((t) => ({
    ...(t.key !== undefined && { key: t.key }),
    operator: t.operator ?? ModelplaneTolerationOperator.EQUAL,
    ...(t.value !== undefined && { value: t.value }),
    ...(t.effect !== undefined && { effect: t.effect }),
  }));
}
