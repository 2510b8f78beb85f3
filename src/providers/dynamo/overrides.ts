import type { ApiObject } from 'cdk8s';
import { FieldError, forbidden, invalid, required } from '../../core/field-error';
import {
  BLOCKED_OVERRIDE_KEYS,
  deepMergeJson,
  mergeIntoFinalJson,
  OverrideNullHandling,
  PROVIDER_OVERRIDES_PATH,
  validateOverrideKeys,
} from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';

/**
 * `spec.provider.overrides` keys the Dynamo provider reads as settings of the services it
 * generates, rather than merging them into the DynamoGraphDeployment.
 */
export const TYPED_OVERRIDE_KEYS: readonly string[] = ['routerMode', 'frontend', 'epp'];

/** Root fields of a DynamoGraphDeployment that overrides may merge into. */
export const DGD_OVERRIDABLE_ROOT_KEYS: readonly string[] = ['spec'];

/**
 * How `null` in the overrides is applied: the key is removed. AI Runway writes a JSON null, but
 * no DynamoGraphDeployment field is nullable, so the API server prunes every null anyway:
 * removing it gives the same stored object and keeps the YAML schema-valid.
 */
export const DYNAMO_OVERRIDE_NULLS = OverrideNullHandling.DELETE;

/** The typed settings read from the overrides (each undefined when not given). */
export interface DynamoTypedOverrides {
  /** `routerMode`: the `Frontend` service's `DYN_ROUTER_MODE`. */
  readonly routerMode?: string;
  /** `frontend.replicas`. */
  readonly frontendReplicas?: number;
  /** `frontend.resources.cpu`: the `Frontend` service's CPU request. */
  readonly frontendCpu?: string;
  /** `frontend.resources.memory`: the `Frontend` service's memory request. */
  readonly frontendMemory?: string;
  /** `epp.replicas`. */
  readonly eppReplicas?: number;
  /** `epp.image`. */
  readonly eppImage?: string;
}


const PARSE_PREFIX = 'failed to parse provider overrides: ';

interface TypedField {
  readonly path: readonly string[];
  readonly kind: 'string' | 'count';
  readonly key: keyof DynamoTypedOverrides;
}

const TYPED_FIELDS: readonly TypedField[] = [
  { path: ['routerMode'], kind: 'string', key: 'routerMode' },
  { path: ['frontend', 'replicas'], kind: 'count', key: 'frontendReplicas' },
  { path: ['frontend', 'resources', 'cpu'], kind: 'string', key: 'frontendCpu' },
  { path: ['frontend', 'resources', 'memory'], kind: 'string', key: 'frontendMemory' },
  { path: ['epp', 'replicas'], kind: 'count', key: 'eppReplicas' },
  { path: ['epp', 'image'], kind: 'string', key: 'eppImage' },
];

/** Parent objects of the typed fields, which must be objects when present. */
const TYPED_PARENTS: readonly (readonly string[])[] = [['frontend'], ['frontend', 'resources'], ['epp']];

function lookup(root: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const segment of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[segment];
  }
  return node;
}

function overridePath(path: readonly string[]): string {
  return [PROVIDER_OVERRIDES_PATH, ...path].join('.');
}

/**
 * Reads the typed settings. A value of the wrong JSON type is an error at its path (AI Runway
 * fails the transform with `failed to parse provider overrides: ...`); `null` counts as unset.
 */
export function parseTypedOverrides(overrides: unknown): { typed: DynamoTypedOverrides; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const typed: Record<string, unknown> = {};
  if (!isJsonObject(overrides)) return { typed, errors };
  for (const parent of TYPED_PARENTS) {
    const value = lookup(overrides, parent);
    if (value !== undefined && value !== null && !isJsonObject(value)) {
      errors.push(invalid(overridePath(parent), value, `${PARSE_PREFIX}${parent.join('.')} must be an object`));
    }
  }
  for (const field of TYPED_FIELDS) {
    const value = lookup(overrides, field.path);
    if (value === undefined || value === null) continue;
    if (field.kind === 'string') {
      if (typeof value === 'string') typed[field.key] = value;
      else errors.push(invalid(overridePath(field.path), value, `${PARSE_PREFIX}${field.path.join('.')} must be a string`));
    } else if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2147483647) {
      typed[field.key] = value;
    } else {
      errors.push(invalid(overridePath(field.path), value, `${PARSE_PREFIX}${field.path.join('.')} must be a non-negative integer`));
    }
  }
  return { typed: typed as DynamoTypedOverrides, errors };
}

/** Which DynamoGraphDeployment shape the overrides address. */
export type DgdShape = 'v1alpha1' | 'v1beta1';

/** The generated services, as the override checks need them. */
export interface GeneratedServices {
  /** Service keys (v1alpha1) / component names (v1beta1), sorted. */
  readonly names: readonly string[];
}

const SERVICES_PATH = `${PROVIDER_OVERRIDES_PATH}.spec.services`;
const COMPONENTS_PATH = `${PROVIDER_OVERRIDES_PATH}.spec.components`;

function newServiceMessage(kind: 'service' | 'component', key: string, generated: GeneratedServices, imageField: string): string {
  return (
    `overrides add the ${kind} ${JSON.stringify(key)}, which this deployment does not generate ` +
    `(it generates ${generated.names.join(', ')}; the aggregated worker is VllmWorker for every engine); ` +
    `Dynamo rejects a new ${kind} without ${imageField}`
  );
}

/**
 * `spec.services.<key>` entries of the overrides (the v1alpha1 map). An entry naming a service
 * we do not generate creates a new service, which Dynamo only accepts with a main-container image.
 */
function servicesOverrideErrors(spec: Record<string, unknown>, generated: GeneratedServices): FieldError[] {
  const services = spec.services;
  if (services === undefined || services === null) return [];
  if (!isJsonObject(services)) {
    return [invalid(SERVICES_PATH, `<${Array.isArray(services) ? 'array' : typeof services}>`, 'spec.services is a map of service name to service spec')];
  }
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(services)) {
    if (value === null) continue;
    if (!isJsonObject(value)) {
      errors.push(invalid(`${SERVICES_PATH}.${key}`, value, 'a service override must be an object'));
      continue;
    }
    if (generated.names.includes(key)) continue;
    const image = lookup(value, ['extraPodSpec', 'mainContainer', 'image']);
    if (typeof image !== 'string' || image === '') {
      errors.push(required(`${SERVICES_PATH}.${key}.extraPodSpec.mainContainer.image`, newServiceMessage('service', key, generated, 'extraPodSpec.mainContainer.image')));
    }
  }
  return errors;
}

function hasMainImage(component: unknown): boolean {
  const containers = lookup(isJsonObject(component) ? component : {}, ['podTemplate', 'spec', 'containers']);
  return Array.isArray(containers) && containers.some((c) => isJsonObject(c) && c.name === 'main' && typeof c.image === 'string' && c.image !== '');
}

/**
 * `spec.components` of the overrides (v1beta1). A list replaces the generated list whole (plain
 * deep-merge semantics); an object keyed by component name is merged into the entry with that
 * name, and a name we do not generate adds a component, which needs a `main` container image.
 */
function componentsOverrideErrors(spec: Record<string, unknown>, generated: GeneratedServices): FieldError[] {
  const components = spec.components;
  if (components === undefined || components === null || Array.isArray(components)) return [];
  if (!isJsonObject(components)) {
    return [invalid(COMPONENTS_PATH, `<${typeof components}>`, 'spec.components is a list, or an object keyed by component name')];
  }
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(components)) {
    if (value === null) continue;
    if (!isJsonObject(value)) {
      errors.push(invalid(`${COMPONENTS_PATH}.${key}`, value, 'a component override must be an object'));
      continue;
    }
    if (generated.names.includes(key) || hasMainImage(value)) continue;
    errors.push(required(`${COMPONENTS_PATH}.${key}.podTemplate.spec.containers`, newServiceMessage('component', key, generated, 'a podTemplate container named "main" with an image')));
  }
  return errors;
}

/**
 * Checks of the overrides that hold for either DynamoGraphDeployment version: a JSON object
 * without blocked root keys (`overriding "<key>" is not allowed`), typed settings of the right
 * type, no root field a DynamoGraphDeployment does not have (it would be dropped; AI Runway
 * merged the typed keys into the root as well, where the API server dropped them), `spec.services`
 * and `spec.components` entries that Dynamo would accept, and not both of those at once.
 */
export function dynamoOverrideErrors(overrides: unknown, generated: GeneratedServices): FieldError[] {
  const errors = validateOverrideKeys(overrides);
  if (!isJsonObject(overrides)) return errors;
  errors.push(...parseTypedOverrides(overrides).errors);
  for (const key of Object.keys(overrides)) {
    if (BLOCKED_OVERRIDE_KEYS.includes(key) || TYPED_OVERRIDE_KEYS.includes(key) || DGD_OVERRIDABLE_ROOT_KEYS.includes(key)) continue;
    errors.push(forbidden(
      `${PROVIDER_OVERRIDES_PATH}.${key}`,
      `a DynamoGraphDeployment has no root field ${JSON.stringify(key)} (overrides merge into the object root: use spec, or the typed keys routerMode, frontend and epp); the API server would drop it`,
    ));
  }
  const spec = overrides.spec;
  if (spec !== undefined && spec !== null && !isJsonObject(spec)) {
    errors.push(invalid(`${PROVIDER_OVERRIDES_PATH}.spec`, `<${Array.isArray(spec) ? 'array' : typeof spec}>`, 'spec must be an object'));
  }
  // A null removes what it names: the whole graph, or all its services, would deploy nothing.
  for (const [path, value] of [['spec', spec], ['spec.services', isJsonObject(spec) ? spec.services : undefined], ['spec.components', isJsonObject(spec) ? spec.components : undefined]] as const) {
    if (value === null) {
      errors.push(invalid(`${PROVIDER_OVERRIDES_PATH}.${path}`, null, `null would remove ${path} from the DynamoGraphDeployment, which would then deploy nothing; override its fields instead`));
    }
  }
  if (isJsonObject(spec)) {
    errors.push(...servicesOverrideErrors(spec, generated), ...componentsOverrideErrors(spec, generated));
    if (spec.services !== undefined && spec.components !== undefined) {
      errors.push(forbidden(
        COMPONENTS_PATH,
        'spec.services (nvidia.com/v1alpha1) and spec.components (nvidia.com/v1beta1) cannot both be overridden; use the shape of the emitted version',
      ));
    }
  }
  return errors;
}

/** v1alpha1 fields that v1beta1 does not have, and where their content lives instead. */
const ALPHA_ONLY_SPEC_FIELDS: Readonly<Record<string, string>> = {
  services: 'components are a list under spec.components; override one as spec.components.<name>',
  pvcs: 'claims are mounted as podTemplate volumes',
  envs: 'graph-wide variables are spec.env',
};
/** v1beta1 fields that v1alpha1 does not have. */
const BETA_ONLY_SPEC_FIELDS: Readonly<Record<string, string>> = {
  components: 'services are a map under spec.services; override one as spec.services.<name>',
  env: 'graph-wide variables are spec.envs',
};

/**
 * Checks that depend on the emitted version: the overrides may not use a `spec` field that only
 * the other version has (the API server would drop it).
 */
export function dynamoOverrideShapeErrors(overrides: unknown, shape: DgdShape): FieldError[] {
  if (!isJsonObject(overrides) || !isJsonObject(overrides.spec)) return [];
  const spec = overrides.spec;
  const foreign = shape === 'v1beta1' ? ALPHA_ONLY_SPEC_FIELDS : BETA_ONLY_SPEC_FIELDS;
  const version = shape === 'v1beta1' ? 'nvidia.com/v1beta1' : 'nvidia.com/v1alpha1';
  return Object.keys(foreign)
    .filter((key) => spec[key] !== undefined)
    .map((key) => forbidden(`${PROVIDER_OVERRIDES_PATH}.spec.${key}`, `this deployment emits ${version}, which has no spec.${key}: ${foreign[key]}`));
}

/** The overrides without the typed keys, which are settings and not DynamoGraphDeployment fields. */
export function mergeableOverrides(overrides: Record<string, unknown>): Record<string, unknown> {
  // Quirk fixed: AI Runway merged the typed keys into the DGD root too, where they were dropped.
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) {
    if (!TYPED_OVERRIDE_KEYS.includes(key)) out[key] = value;
  }
  return out;
}

/**
 * Deep-merges the overrides into the final JSON of the DynamoGraphDeployment (after its own
 * rendering and any JSON patches), with the shared merge: maps merge, everything else replaces,
 * `null` removes. The typed keys are left out. For v1beta1 an object under `spec.components` is
 * merged entry by entry into the component list by `name` (the list's map key, as the API server
 * treats it); a name without an entry appends a component.
 */
export function applyDgdOverrides(dgd: ApiObject, overrides: Record<string, unknown>, shape: DgdShape): void {
  const mergeable = mergeableOverrides(overrides);
  const spec = mergeable.spec;
  const byName = shape === 'v1beta1' && isJsonObject(spec) && isJsonObject(spec.components) ? spec.components : undefined;
  if (!byName) {
    mergeIntoFinalJson(dgd, mergeable, DYNAMO_OVERRIDE_NULLS);
    return;
  }
  const { components: _components, ...restOfSpec } = spec as Record<string, unknown>;
  mergeIntoFinalJson(dgd, { ...mergeable, spec: restOfSpec }, DYNAMO_OVERRIDE_NULLS);
  const render = dgd.toJson.bind(dgd);
  Object.defineProperty(dgd, 'toJson', {
    value: () => {
      const json = render();
      json.spec = { ...json.spec, components: mergeComponentsByName(json.spec?.components ?? [], byName) };
      return json;
    },
    configurable: true,
    writable: true,
  });
}

function mergeComponentsByName(list: readonly Record<string, unknown>[], byName: Record<string, unknown>): Record<string, unknown>[] {
  const out = list.map((c) => ({ ...c }));
  for (const [name, value] of Object.entries(byName)) {
    const index = out.findIndex((c) => c.name === name);
    if (value === null) {
      if (index >= 0) out.splice(index, 1);
    } else if (index >= 0) {
      out[index] = deepMergeJson(out[index], isJsonObject(value) ? value : {}, DYNAMO_OVERRIDE_NULLS);
    } else {
      out.push(deepMergeJson({ name }, isJsonObject(value) ? value : {}, DYNAMO_OVERRIDE_NULLS));
    }
  }
  return out;
}
