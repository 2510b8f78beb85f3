import type { ApiObject } from 'cdk8s';
import { isJsonObject } from './unstructured';
import { FieldError, forbidden, invalid } from '../core/field-error';
import { LABEL_DEPLOYMENT, LABEL_MODEL_DEPLOYMENT } from '../core/labels';

/** Where users put the provider escape hatch. */
export const PROVIDER_OVERRIDES_PATH = 'spec.provider.overrides';

/** Top-level keys every AI Runway transformer refuses to take from overrides. */
export const BLOCKED_OVERRIDE_KEYS: readonly string[] = ['apiVersion', 'kind', 'metadata', 'status'];


/**
 * The transformer-side check of `spec.provider.overrides`: it must be an object and may not name
 * a blocked top-level key (`overriding "<key>" is not allowed`, one error per key).
 */
export function validateOverrideKeys(
  overrides: unknown,
  blockedKeys: readonly string[] = BLOCKED_OVERRIDE_KEYS,
): FieldError[] {
  if (overrides === undefined || overrides === null) return [];
  if (!isJsonObject(overrides)) {
    // The value is not echoed (overrides may carry secrets); only its JSON type is.
    const type = Array.isArray(overrides) ? 'array' : typeof overrides;
    return [invalid(PROVIDER_OVERRIDES_PATH, `<${type}>`, 'overrides must be a JSON object')];
  }
  return blockedKeys
    .filter((key) => Object.prototype.hasOwnProperty.call(overrides, key))
    .map((key) => forbidden(`${PROVIDER_OVERRIDES_PATH}.${key}`, `overriding ${JSON.stringify(key)} is not allowed`));
}

/**
 * The root keys of `overrides` that are neither in `allowedRoots` nor blocked (`validateOverrideKeys`
 * reports those): one Forbidden error per key at `spec.provider.overrides.<key>`, worded by
 * `message`, which names the key and what the provider accepts. A root the provider's object has
 * no field for would be dropped by the API server (or make it refuse the object), so the
 * override would silently do nothing. Non-object overrides yield nothing here.
 */
export function unknownOverrideRootErrors(
  overrides: unknown,
  allowedRoots: readonly string[],
  message: (key: string) => string,
): FieldError[] {
  if (!isJsonObject(overrides)) return [];
  return Object.keys(overrides)
    .filter((key) => !allowedRoots.includes(key) && !BLOCKED_OVERRIDE_KEYS.includes(key))
    .map((key) => forbidden(`${PROVIDER_OVERRIDES_PATH}.${key}`, message(key)));
}

/** The one root a Deployment-based provider's overrides may name. */
export const DEPLOYMENT_OVERRIDABLE_ROOT_KEYS: readonly string[] = ['spec'];

/** Pod labels that tie a Deployment-based provider's pods to its Deployment selector, Service and InferencePool. */
export const PROTECTED_POD_LABELS: readonly string[] = [LABEL_DEPLOYMENT, 'app', LABEL_MODEL_DEPLOYMENT];

/** How `validateDeploymentOverrides` words and scopes its checks for one provider. */
export interface DeploymentOverrideRules {
  /** The provider's name in messages (`llm-d`, `vLLM`). */
  readonly displayName: string;
  /** Further pod labels overrides may not set, each with the reason (llm-d's role label). */
  readonly protectedPodLabels?: Readonly<Record<string, string>>;
  /**
   * Set by a provider that refuses any override of `spec.template.spec` (llm-d) to its message:
   * a non-object `spec` or `spec.template` is refused in those terms, and the pod-spec checks
   * are left to the provider, which reports `spec.template.spec` itself.
   */
  readonly podSpecBlockedMessage?: string;
}

function has(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/**
 * The checks of `spec.provider.overrides` shared by the providers that deep-merge them into a
 * Deployment (llm-d, Direct vLLM): `validateOverrideKeys`, then the ones that keep the merged
 * Deployment valid and its pods selected, each closing a certain failure at apply time:
 *
 * - no root key but `spec` (a Deployment has no other field they could set);
 * - no `spec.selector` (it must match the pod labels the provider sets, which its Service selects);
 * - no non-object `spec`, `spec.template`, `spec.template.metadata` or `.labels` (each would
 *   replace what the provider renders wholesale), nor, unless the provider refuses pod-spec
 *   overrides altogether, a non-object `spec.template.spec`;
 * - no pod label `airunway.ai/deployment`, `app` or `airunway.ai/model-deployment` (they tie the
 *   pods to the Deployment selector, the Service and the InferencePool; users cannot clobber them
 *   through `spec.podTemplate` either), nor any of `rules.protectedPodLabels`;
 * - `spec.template.spec.containers`, when given, a non-empty list (a `null` would remove them).
 *
 * A `null` for `spec.selector` or `spec.template` falls under the first two rules.
 */
export function validateDeploymentOverrides(overrides: unknown, rules: DeploymentOverrideRules): FieldError[] {
  const errors = [
    ...validateOverrideKeys(overrides),
    ...unknownOverrideRootErrors(overrides, DEPLOYMENT_OVERRIDABLE_ROOT_KEYS, (key) =>
      `a Deployment has no root field ${JSON.stringify(key)}; ${rules.displayName} overrides merge into each Deployment, so put fields under "spec"`),
  ];
  if (!isJsonObject(overrides) || !has(overrides, 'spec')) return errors;
  const path = `${PROVIDER_OVERRIDES_PATH}.spec`;
  const blocked = rules.podSpecBlockedMessage;
  const replaced = (field: string, what: string) =>
    blocked !== undefined
      ? `${blocked} (a non-object ${JSON.stringify(field)} would replace it)`
      : `overriding ${JSON.stringify(field)} with a non-object is not allowed: it would replace the whole ${what}`;

  const spec = overrides.spec;
  if (!isJsonObject(spec)) return [...errors, forbidden(path, replaced('spec', 'Deployment spec'))];
  if (has(spec, 'selector')) {
    errors.push(forbidden(
      `${path}.selector`,
      `overriding "spec.selector" is not allowed: it must match the pod labels ${rules.displayName} sets, which its Service selects`,
    ));
  }
  if (!has(spec, 'template')) return errors;

  const template = spec.template;
  if (!isJsonObject(template)) return [...errors, forbidden(`${path}.template`, replaced('spec.template', 'pod template'))];
  if (blocked === undefined && has(template, 'spec')) errors.push(...podSpecErrors(`${path}.template.spec`, template.spec));
  if (has(template, 'metadata')) errors.push(...podLabelErrors(`${path}.template.metadata`, template.metadata, rules));
  return errors;
}

function podSpecErrors(path: string, podSpec: unknown): FieldError[] {
  if (!isJsonObject(podSpec)) {
    return [forbidden(path, 'overriding "spec.template.spec" with a non-object is not allowed: it would replace the whole pod spec')];
  }
  if (!has(podSpec, 'containers')) return [];
  const containers = podSpec.containers;
  if (Array.isArray(containers) && containers.length > 0) return [];
  return [forbidden(
    `${path}.containers`,
    'overriding "spec.template.spec.containers" with anything but a non-empty list is not allowed: a pod needs at least one container',
  )];
}

function podLabelErrors(path: string, metadata: unknown, rules: DeploymentOverrideRules): FieldError[] {
  const reason = `the Deployment selector, the Service and the InferencePool select ${rules.displayName} pods by their labels`;
  if (!isJsonObject(metadata)) {
    return [forbidden(path, `overriding "spec.template.metadata" with a non-object is not allowed: ${reason}`)];
  }
  if (!has(metadata, 'labels')) return [];
  const labels = metadata.labels;
  if (!isJsonObject(labels)) {
    return [forbidden(`${path}.labels`, `overriding "spec.template.metadata.labels" with a non-object is not allowed: ${reason}`)];
  }
  const protectedLabels: Array<[string, string]> = [
    ...PROTECTED_POD_LABELS.map((label): [string, string] => [label, reason]),
    ...Object.entries(rules.protectedPodLabels ?? {}),
  ];
  return protectedLabels
    .filter(([label]) => has(labels, label))
    .map(([label, why]) => forbidden(`${path}.labels.${label}`, `overriding pod label ${JSON.stringify(label)} is not allowed: ${why}`));
}

/** How a `null` in the overrides is applied. */
export enum OverrideNullHandling {
  /** The key is set to JSON null (Dynamo, llm-d, Direct vLLM). */
  SET_NULL = 'set-null',
  /** The key is removed (KAITO). */
  DELETE = 'delete',
}

/**
 * Deep merge of `source` into a copy of `target`: objects merge key by key, every other value
 * (lists and numbers included) replaces what was there.
 */
export function deepMergeJson(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  nulls: OverrideNullHandling = OverrideNullHandling.SET_NULL,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) {
    if (value === null && nulls === OverrideNullHandling.DELETE) {
      delete out[key];
    } else if (isJsonObject(value) && isJsonObject(out[key])) {
      out[key] = deepMergeJson(out[key] as Record<string, unknown>, value, nulls);
    } else {
      out[key] = cloneJson(value);
    }
  }
  return out;
}

function cloneJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/**
 * The overrides merged into each object: the synth-time check validates those objects against
 * their schema (src/admission/emitted-objects.ts), which the generated ones need not be.
 */
const MERGED_OVERRIDES = new WeakMap<ApiObject, Record<string, unknown>>();

/** The overrides `mergeIntoFinalJson` merged into `obj`, or undefined when none were. */
export function mergedOverridesOf(obj: ApiObject): Record<string, unknown> | undefined {
  return MERGED_OVERRIDES.get(obj);
}

/**
 * Deep-merges `overrides` into the final JSON of `obj`, after everything else (its own
 * rendering and any JSON patches). Done by wrapping `toJson()` rather than with `addJsonPatch`:
 * a typed L1 re-serializes its patched JSON through its generated `toJson_*` mapper, which drops
 * fields it does not know and string values in IntOrString/Quantity positions, so patches cannot
 * carry arbitrary overrides faithfully.
 */
export function mergeIntoFinalJson(
  obj: ApiObject,
  overrides: Record<string, unknown>,
  nulls: OverrideNullHandling = OverrideNullHandling.SET_NULL,
): void {
  const render = obj.toJson.bind(obj);
  MERGED_OVERRIDES.set(obj, overrides);
  Object.defineProperty(obj, 'toJson', {
    value: () => deepMergeJson(render(), overrides, nulls),
    configurable: true,
    writable: true,
  });
}
