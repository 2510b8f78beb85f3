/**
 * The synth-time check of every object a ModelDeployment emits, on its final JSON (after
 * `provider.overrides` are merged, which happens when the object renders): what the API server
 * would refuse there is a field error of the deployment, never YAML that fails at apply time.
 *
 * Cheap checks run on every object: at most 1.5 MiB of JSON (object-size.ts), finite numbers
 * (finite-numbers.ts), strings YAML output can carry (yaml-writable-strings.ts), label keys and
 * values wherever labels sit (kubernetes-names.ts) and the pod rules (pod-rules.ts: tolerations,
 * environment variable names, mounts of missing volumes).
 * An object that received `provider.overrides` is also validated against its upstream schema
 * (`validateManifest`, which includes the cheap checks): the generated part of an object is
 * schema-valid by construction (the tests prove it), the merged part is whatever the user wrote,
 * so the schema check costs only deployments that have overrides.
 *
 * Each violation is reported where the user can fix it: at `spec.provider.overrides.<path>` when
 * the overrides hold the offending field, else at the field of the deployment's spec holding the
 * offending key or value (a pod label from `spec.podTemplate`, an env var from `spec.env`), else at
 * the deepest part of the overrides that leads to it, else at `spec` naming the object.
 */
import type { ApiObject } from 'cdk8s';
import { FieldError, invalid } from '../core/field-error';
import { joinSegments, parsePath, PathSegment } from '../core/field-path';
import { isJsonObject } from '../core/json-object';
import { checkNestedLabels } from '../core/kubernetes-names';
import { MAX_QUOTED_LENGTH } from '../core/quoted-value';
import { renderedJson } from '../core/rendered-json';
import { mergedOverridesOf, PROVIDER_OVERRIDES_PATH } from '../provider-kit/overrides';
import { checkFiniteNumbers } from '../schema-validation/finite-numbers';
import { objectSizeProblem } from '../schema-validation/object-size';
import { checkPodRules } from '../schema-validation/pod-rules';
import { checkYamlWritableStrings } from '../schema-validation/yaml-writable-strings';

type Json = any;

/** The ModelDeployment record (airunway.ai), which carries the deployment's spec as data. */
const RECORD_API_VERSION = 'airunway.ai/v1alpha1';
const RECORD_KIND = 'ModelDeployment';


interface Violation {
  readonly path: string;
  readonly message: string;
}

/**
 * The field errors of the final JSON of `objects`, emitted for the deployment whose spec is
 * `spec` (its `provider.overrides` and the fields the objects were built from).
 */
export function emittedObjectErrors(objects: readonly ApiObject[], spec: Json): FieldError[] {
  const errors: FieldError[] = [];
  const recordErrors: FieldError[] = [];
  const overrides = isJsonObject(spec?.provider?.overrides) ? spec.provider.overrides : undefined;
  for (const o of objects) {
    const json = renderedJson(o);
    const what = `${o.kind} ${JSON.stringify(o.name)}`;
    const text = JSON.stringify(json);
    const tooLarge = objectSizeProblem(json, text);
    if (tooLarge) {
      // Nothing else is checked in an object that large: the messages would repeat its content.
      errors.push(sizeError(spec, `synthesized ${what} ${tooLarge}`));
      continue;
    }
    const isRecord = o.apiVersion === RECORD_API_VERSION && o.kind === RECORD_KIND;
    for (const v of violationsOf(json, text, mergedOverridesOf(o) !== undefined)) {
      (isRecord ? recordErrors : errors).push(toFieldError(v, json, what, spec, overrides, isRecord));
    }
  }
  // The record repeats the spec: what a generated object already reports at a path is not repeated.
  const reported = new Set(errors.map((e) => e.path));
  return [...errors, ...recordErrors.filter((e) => !reported.has(e.path))];
}

function violationsOf(json: Json, text: string, merged: boolean): Violation[] {
  if (merged) {
    // Loaded here: the schema validator and its bundle are needed only for deployments with overrides.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { validateManifest } = require('../schema-validation/manifest-validator') as typeof import('../schema-validation/manifest-validator');
    const out: Violation[] = validateManifest(withoutNulls(json)).map((v) => ({ path: v.path === '(root)' ? '' : v.path, message: v.message }));
    checkYamlWritableStrings(json, '', (path, message) => out.push({ path, message }), text);
    return out;
  }
  const out: Violation[] = [];
  const report = (path: string, message: string) => out.push({ path, message });
  checkFiniteNumbers(json, '', report);
  checkYamlWritableStrings(json, '', report, text);
  // The record too: its spec is the deployment's, and a label, node selector or pod spec in it
  // (one in overrides a provider ignores, or in a pod template a provider puts where the checks
  // do not look) is refused wherever it ends up; the errors name the spec's own paths.
  checkNestedLabels(json, '', report, true);
  checkPodRules(json, report);
  return out;
}

function toFieldError(v: Violation, json: Json, what: string, spec: Json, overrides: Json, isRecord: boolean): FieldError {
  const segments = parsePath(v.path);
  const offending = valueAt(json, segments);
  const message = `${v.message} (in the synthesized ${what}${v.path ? ` at ${v.path}` : ''})`;
  // The record's spec is the deployment's: its paths are the user's.
  if (isRecord && segments[0] === 'spec' && hasPath({ spec }, segments)) return invalid(v.path, shown(offending), message);
  if (overrides !== undefined && segments.length > 0 && hasPath(overrides, segments)) {
    return invalid(joinSegments(PROVIDER_OVERRIDES_PATH, segments), shown(valueAt(overrides, segments)), message);
  }
  const keyIsOffending = /^(label|annotation) key /.test(v.message);
  const source = findSource(spec, offending, keyIsOffending ? segments[segments.length - 1] : undefined);
  if (source) return invalid(joinSegments('spec', source.path), shown(source.value), message);
  if (overrides !== undefined) {
    const prefix = deepestPrefix(overrides, segments);
    if (prefix.length > 0) return invalid(joinSegments(PROVIDER_OVERRIDES_PATH, prefix), shown(valueAt(overrides, prefix)), message);
  }
  return invalid('spec', shown(offending), message);
}

/** Blames the longest string of the spec (a model id of megabytes) when one is large. */
function sizeError(spec: Json, message: string): FieldError {
  let longest: { path: PathSegment[]; value: string } | undefined;
  walk(spec, (path, value) => {
    if (typeof value === 'string' && value.length > (longest?.value.length ?? 64 * 1024)) longest = { path, value };
    return false;
  });
  return longest
    ? invalid(joinSegments('spec', longest.path), shown(longest.value), `${message}; this value is ${longest.value.length} characters long`)
    : invalid('spec', '<object>', message);
}

/**
 * Where in the spec the offending value (a string) or key (the last segment of its path) was
 * written, when it is there verbatim.
 */
function findSource(spec: Json, value: unknown, key: PathSegment | undefined): { path: PathSegment[]; value: unknown } | undefined {
  let found: { path: PathSegment[]; value: unknown } | undefined;
  if (typeof key === 'string' && key !== '') {
    walk(spec, (path, v) => {
      if (path[path.length - 1] === key) found = { path, value: v };
      return found !== undefined;
    });
  } else if (typeof value === 'string' && value !== '') {
    walk(spec, (path, v) => {
      if (v === value) found = { path, value: v };
      return found !== undefined;
    });
  }
  return found;
}

/** Visits every value below `root` (iteratively) until `visit` returns true. */
function walk(root: Json, visit: (path: PathSegment[], value: unknown) => boolean): void {
  const stack: Array<[Json, PathSegment[]]> = [[root, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (path.length > 0 && visit(path, node)) return;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...path, i]]);
    } else if (node && typeof node === 'object') {
      for (const k of Object.keys(node).reverse()) stack.push([node[k], [...path, k]]);
    }
  }
}

/**
 * A copy without map entries whose value is null: a `null` in the overrides removes a field in
 * the provider's object, and the API server reads a null as absent (built-in kinds decode it to
 * the zero value, custom resources prune it), so the schema is checked on what it stores.
 */
function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

function hasPath(root: Json, segments: readonly PathSegment[]): boolean {
  return deepestPrefix(root, segments).length === segments.length;
}

function deepestPrefix(root: Json, segments: readonly PathSegment[]): PathSegment[] {
  const out: PathSegment[] = [];
  let cur = root;
  for (const s of segments) {
    if (!cur || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, s)) break;
    cur = cur[s];
    out.push(s);
  }
  return out;
}

function valueAt(root: Json, segments: readonly PathSegment[]): unknown {
  let cur = root;
  for (const s of segments) cur = cur && typeof cur === 'object' ? cur[s] : undefined;
  return cur;
}

/** The value as a field error shows it: scalars (long strings cut short), `<object>`, `<array>`. */
function shown(value: unknown): unknown {
  if (typeof value === 'string' && value.length > MAX_QUOTED_LENGTH) return `${value.slice(0, MAX_QUOTED_LENGTH)}… (${value.length} characters)`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return '<array>';
  if (value && typeof value === 'object') return '<object>';
  return value;
}
