/**
 * How hardened the model-server pods of a deployment are: a Pod Security Standard level. AI
 * Runway's ModelDeployment has no field for it, so it travels as an annotation of ours (the typed
 * construct writes it from `podSecurity`, a YAML author writes it directly, and the record carries
 * it to the controller).
 */
import { FieldError, invalid, notSupported } from '../core/field-error';

/**
 * The Pod Security Standard the model-server pods of a deployment are built to pass.
 *
 * The engines' images (vLLM, SGLang, TensorRT-LLM, Ray) run as root and write their caches under
 * the home directory, so the strictest level is not the default: it needs an image that works
 * under an arbitrary non-root user, which the README's "Pod security" section lists per engine.
 */
export enum PodSecurityLevel {
  /**
   * The "baseline" standard, hardened as far as the images tolerate it while still running as
   * their own (root) user: no privileged container or privilege escalation, the capabilities an
   * inference server does not use dropped, seccomp `RuntimeDefault`.
   */
  BASELINE = 'baseline',
  /**
   * The "restricted" standard: a numeric non-root user, group and fsGroup, every capability
   * dropped, no privilege escalation, seccomp `RuntimeDefault`, and writable emptyDirs for the
   * home directory, caches and `/tmp` where the engine writes.
   */
  RESTRICTED = 'restricted',
}

/** ModelDeployment annotation: `baseline` (the default) or `restricted`. */
export const POD_SECURITY_ANNOTATION = 'inference.cdk8s.io/pod-security';

/** Field path of the annotation, in messages. */
export const POD_SECURITY_PATH = `metadata.annotations[${JSON.stringify(POD_SECURITY_ANNOTATION)}]`;

const LEVELS: readonly string[] = [PodSecurityLevel.BASELINE, PodSecurityLevel.RESTRICTED];

/** The level a deployment asks for: its annotation, else baseline (an invalid value is reported by `podSecurityAnnotationErrors`). */
export function podSecurityLevelOf(annotations: Readonly<Record<string, string>> | undefined): PodSecurityLevel {
  return annotations?.[POD_SECURITY_ANNOTATION] === PodSecurityLevel.RESTRICTED ? PodSecurityLevel.RESTRICTED : PodSecurityLevel.BASELINE;
}

/** The annotation, when set to anything but a level. */
export function podSecurityAnnotationErrors(annotations: Readonly<Record<string, string>> | undefined): FieldError[] {
  const value = annotations?.[POD_SECURITY_ANNOTATION];
  if (value === undefined || LEVELS.includes(value)) return [];
  return [notSupported(POD_SECURITY_PATH, value, LEVELS)];
}

/** What the deployment's own settings and the registry say about its level. */
export interface PodSecurityChoice {
  /** `ModelDeploymentProps.podSecurity`. */
  readonly fromProps?: PodSecurityLevel;
  /** `ProviderRegistryProps.podSecurity`: applies to deployments that do not choose. */
  readonly registryDefault?: PodSecurityLevel;
}

/**
 * The deployment's annotations with its level written in: the props' choice (which must agree
 * with an annotation the author wrote as well), else the annotation, else the registry's default.
 * Unchanged when nothing is chosen anywhere (baseline, and no annotation in the output).
 */
export function withPodSecurityAnnotation(
  annotations: Readonly<Record<string, string>> | undefined,
  choice: PodSecurityChoice,
): { annotations?: Record<string, string>; errors: FieldError[] } {
  const own = annotations?.[POD_SECURITY_ANNOTATION];
  const copy = annotations && { ...annotations };
  if (choice.fromProps !== undefined) {
    if (own !== undefined && own !== choice.fromProps) {
      return {
        annotations: copy,
        errors: [invalid(POD_SECURITY_PATH, own, `disagrees with podSecurity (${choice.fromProps}); set only one of them`)],
      };
    }
    return { annotations: { ...copy, [POD_SECURITY_ANNOTATION]: choice.fromProps }, errors: [] };
  }
  if (own === undefined && choice.registryDefault !== undefined) {
    return { annotations: { ...copy, [POD_SECURITY_ANNOTATION]: choice.registryDefault }, errors: [] };
  }
  return { annotations: copy, errors: [] };
}
