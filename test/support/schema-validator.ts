/**
 * Schema conformance for synthesized manifests.
 *
 * `validateManifest(obj)` checks one object the way the Kubernetes API server would accept it,
 * except that unknown fields (which the API server silently prunes) are reported as errors:
 * - the upstream schema of its apiVersion+kind (see upstream-schemas.ts for what is encoded
 *   and for the known gaps);
 * - the CRD's `x-kubernetes-validations` CEL rules, evaluated with @bufbuild/cel as the API server
 *   does on create (see `checkCelRules`): each rule at the node declaring it, with `self` bound to
 *   the value there when one is present, after structural defaulting. A false rule reports its
 *   messageExpression/message (`failed rule: <rule>` without one) at the node, extended by its
 *   `fieldPath`, prefixed by its `reason` unless that is FieldValueInvalid; a run-time error (a
 *   missing key without `has()`, an index out of range) reports `<error> evaluating rule: ...`.
 *   Transition rules (`oldSelf`) are skipped; with `optionalOldSelf` they run with no old object.
 *   Rules using what @bufbuild/cel lacks — Kubernetes' lists, regex `find`, URL, IP, CIDR,
 *   quantity, semver and format libraries, optionals — are never evaluated and never fail;
 *   `celRuleStats()` and `celRuleCoverage()` list them, and count evaluations that could not
 *   decide (a function with no overload for its operands at run time, a duration or date
 *   @bufbuild/cel cannot parse);
 * - `metadata.name` present and a DNS-1123 subdomain (a DNS-1035 label for Services, a DNS-1123
 *   label for Namespaces, a path segment for RBAC objects), `metadata.namespace` a DNS-1123 label;
 * - label keys/values and annotation keys in Kubernetes syntax, in the object's metadata and in
 *   nested `metadata` (pod templates), `matchLabels` and Service selectors;
 * - a few Go-side API server rules of built-in kinds that schemas cannot express: apps/v1
 *   selectors must match the template labels; Job/CronJob pods restart OnFailure or Never and
 *   apps/v1 pods Always; container names are unique DNS-1123 labels and container port names
 *   are IANA service names; multi-port Services name every port uniquely; a workload's spec
 *   must be present.
 *
 * `expectValidManifests(objs)` validates many objects and throws one error listing every
 * violation as `<kind>/<name>: <json path>: <message>`.
 */
import type * as CelLib from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';
import type { ErrorObject } from 'ajv';
import type { CelRule, CelSchema } from './upstream-schemas';
import { upstreamCelSchema, upstreamValidator } from './upstream-schemas';

/** One way in which a manifest would be rejected (or silently altered) by the API server. */
export interface SchemaViolation {
  readonly apiVersion: string;
  readonly kind: string;
  /** metadata.name, or `<unnamed>`. */
  readonly name: string;
  /** Path of the offending value, e.g. `spec.template.spec.containers[0].image`; `(root)` for the object. */
  readonly path: string;
  readonly message: string;
}

type Json = any;

const UNNAMED = '<unnamed>';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** Validate one object; returns every violation (empty when the object is valid). */
export function validateManifest(obj: Json): SchemaViolation[] {
  const apiVersion = typeof obj?.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj?.kind === 'string' ? obj.kind : '';
  const name = typeof obj?.metadata?.name === 'string' && obj.metadata.name ? obj.metadata.name : UNNAMED;
  const out: SchemaViolation[] = [];
  const report = (p: string, message: string) => out.push({ apiVersion, kind, name, path: p || '(root)', message });

  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) {
    report('', `must be an object, got ${describeValue(obj)}`);
    return out;
  }
  if (!apiVersion || !kind) {
    report('', `apiVersion and kind are required (got apiVersion ${describeValue(obj.apiVersion)}, kind ${describeValue(obj.kind)})`);
    return out;
  }
  const validate = upstreamValidator(apiVersion, kind);
  if (!validate) {
    report('', `no upstream schema for ${apiVersion} ${kind}`);
    return out;
  }
  if (!validate(obj)) {
    for (const v of explainErrors(validate.errors ?? [], obj)) {
      report(v.path, v.message);
    }
  }
  checkMetadata(obj, apiVersion, kind, report);
  checkNestedLabels(obj, '', report, true);
  checkBuiltInRules(obj, apiVersion, kind, report);
  checkCelRules(obj, apiVersion, kind, report);
  // Stable order by path, so that a failing test shows the same text every run.
  return dedupe(out).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Validate many objects; returns every violation of every object. */
export function validateManifests(objs: Json[]): SchemaViolation[] {
  return objs.flatMap((o) => validateManifest(o));
}

/** `<kind>/<name>: <json path>: <message>` */
export function formatViolation(v: SchemaViolation): string {
  return `${v.kind || '<no kind>'}/${v.name}: ${v.path}: ${v.message}`;
}

/**
 * Jest helper: throws one error that lists every violation of every object, one a line.
 * Accepts the output of `Testing.synth(chart)` (an array) or a single object.
 */
export function expectValidManifests(objs: Json[] | Json): void {
  const list: Json[] = Array.isArray(objs) ? objs : [objs];
  if (list.length === 0) {
    throw new Error('expectValidManifests: no manifests given (did the chart synthesize nothing?)');
  }
  const violations = validateManifests(list);
  if (violations.length > 0) {
    const lines = violations.map((v) => `  ${formatViolation(v)}`);
    throw new Error(`${violations.length} schema violation(s) in ${list.length} manifest(s):\n${lines.join('\n')}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Ajv errors -> readable violations
// ---------------------------------------------------------------------------------------------

interface PathMessage {
  path: string;
  message: string;
}

function explainErrors(errors: ErrorObject[], data: Json): PathMessage[] {
  // anyOf/oneOf failures: report one message per junctor, built from its branches' errors.
  const junctors = errors.filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && e.params?.passingSchemas == null);
  const branchErrors = new Map<ErrorObject, ErrorObject[]>();
  const consumed = new Set<ErrorObject>();
  for (const j of junctors) {
    const prefix = `${j.schemaPath}/`;
    const branches = errors.filter((e) => e !== j && e.schemaPath.startsWith(prefix) && isWithin(e.instancePath, j.instancePath));
    branches.forEach((b) => consumed.add(b));
    branchErrors.set(j, branches);
  }
  // A value of the wrong type also fails its enum/pattern/bounds: report only the type.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type' && !consumed.has(e)).map((e) => e.instancePath));
  const out: PathMessage[] = [];
  for (const e of errors) {
    if (consumed.has(e) || (e.keyword !== 'type' && wrongType.has(e.instancePath) && !['required', 'additionalProperties'].includes(e.keyword))) {
      continue;
    }
    const at = toPath(e.instancePath, data);
    const value = valueAt(e.instancePath, data);
    switch (e.keyword) {
      case 'required':
        out.push({ path: join(at, e.params.missingProperty, false), message: 'required field is missing' });
        break;
      case 'additionalProperties':
        out.push({
          path: join(at, e.params.additionalProperty, false),
          message: 'unknown field (not in the upstream schema; the API server would drop it)',
        });
        break;
      case 'type':
        out.push({ path: at, message: `must be ${typeList(e.params.type)}, got ${describeValue(value)}` });
        break;
      case 'enum':
        out.push({ path: at, message: `must be one of ${e.params.allowedValues.map((v: Json) => JSON.stringify(v)).join(', ')}; got ${describeValue(value)}` });
        break;
      case 'const':
        out.push({ path: at, message: `must be ${JSON.stringify(e.params.allowedValue)}, got ${describeValue(value)}` });
        break;
      case 'uniqueItems':
        out.push({
          // Ajv reports the later duplicate as j and the earlier one as i.
          path: join(at, String(e.params.j), true),
          message: `duplicate entry ${describeValue(value?.[e.params.j])} in a set-type list (same as item ${e.params.i})`,
        });
        break;
      case 'anyOf':
      case 'oneOf':
        out.push({ path: at, message: junctorMessage(e, branchErrors.get(e) ?? [], value, data) });
        break;
      default:
        out.push({ path: at, message: `${e.message ?? e.keyword}${showsValue(e.keyword) ? `, got ${describeValue(value)}` : ''}` });
    }
  }
  return out;
}

function junctorMessage(e: ErrorObject, branches: ErrorObject[], value: Json, data: Json): string {
  if (e.keyword === 'oneOf' && e.params?.passingSchemas) {
    return `must match exactly one of the allowed shapes, but matches several (${e.params.passingSchemas.join(', ')})`;
  }
  const atSameValue = branches.filter((b) => b.instancePath === e.instancePath);
  if (branches.length > 0 && branches.every((b) => b.keyword === 'type' && b.instancePath === e.instancePath)) {
    const types = [...new Set(branches.flatMap((b) => [].concat(b.params.type)))];
    return `must be ${typeList(types)}, got ${describeValue(value)}`;
  }
  // A value of the right type that fails the branch it was meant for (e.g. a bad quantity string).
  const typeFailures = new Set(atSameValue.filter((b) => b.keyword === 'type').map((b) => branchOf(e, b)));
  const relevant = branches.filter((b) => !typeFailures.has(branchOf(e, b)));
  const reasons = [...new Set(relevant.map((b) => {
    const sub = toPath(b.instancePath, data);
    const where = b.instancePath === e.instancePath ? '' : `${sub}: `;
    return `${where}${b.message ?? b.keyword}`;
  }))];
  return `must match ${e.keyword === 'oneOf' ? 'exactly one' : 'one'} of the allowed shapes, got ${describeValue(value)}${reasons.length ? ` (${reasons.join('; ')})` : ''}`;
}

function isWithin(pointer: string, parent: string): boolean {
  return pointer === parent || pointer.startsWith(`${parent}/`);
}

function branchOf(junctor: ErrorObject, branch: ErrorObject): string {
  return branch.schemaPath.slice(junctor.schemaPath.length + 1).split('/')[0];
}

function showsValue(keyword: string): boolean {
  return ['pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'multipleOf'].includes(keyword);
}

function typeList(types: Json): string {
  const list: string[] = [].concat(types).filter((t: string) => t !== 'null');
  return list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : list[0] ?? 'null';
}

function describeValue(value: Json): string {
  if (value === undefined) {
    return 'nothing';
  }
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return `array (${value.length} items)`;
  }
  if (typeof value === 'object') {
    return 'object';
  }
  const text = JSON.stringify(value);
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `${typeof value} ${shown}`;
}

function decodePointer(pointer: string): string[] {
  if (!pointer) {
    return [];
  }
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(pointer: string, data: Json): Json {
  let cur = data;
  for (const seg of decodePointer(pointer)) {
    cur = cur == null ? undefined : cur[seg];
  }
  return cur;
}

/** JSON pointer -> `spec.containers[0].ports[1].name`, with odd keys quoted: `labels["a.b/c"]`. */
function toPath(pointer: string, data: Json): string {
  let out = '';
  let cur = data;
  for (const seg of decodePointer(pointer)) {
    out = join(out, seg, Array.isArray(cur));
    cur = cur == null ? undefined : cur[seg];
  }
  return out;
}

function join(base: string, key: string, isIndex: boolean): string {
  if (isIndex) {
    return `${base}[${key}]`;
  }
  if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) {
    return base ? `${base}.${key}` : key;
  }
  return `${base}[${JSON.stringify(key)}]`;
}

function dedupe(list: SchemaViolation[]): SchemaViolation[] {
  const seen = new Set<string>();
  return list.filter((v) => {
    const key = `${v.path}\u0000${v.message}`;
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Names, labels, annotations (apimachinery validation)
// ---------------------------------------------------------------------------------------------

type Report = (path: string, message: string) => void;

/** Problems with a DNS-1123 subdomain, or [] when valid. */
export function dnsSubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) {
    errs.push('must be no more than 253 characters');
  }
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push("must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character");
  }
  return errs;
}

/** Problems with a DNS-1123 label, or [] when valid. */
export function dnsLabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) {
    errs.push('must be no more than 63 characters');
  }
  if (!DNS1123_LABEL.test(value)) {
    errs.push("must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character");
  }
  return errs;
}

/** Problems with a DNS-1035 label (Service names), or [] when valid. */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) {
    errs.push('must be no more than 63 characters');
  }
  if (!DNS1035_LABEL.test(value)) {
    errs.push("must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character");
  }
  return errs;
}

/** Problems with a qualified name (label and annotation keys: `[prefix/]name`), or [] when valid. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) {
      errs.push('prefix part must be non-empty');
    } else {
      errs.push(...dnsSubdomainErrors(prefix).map((m) => `prefix part ${m}`));
    }
  } else if (parts.length > 2) {
    return ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'"];
  }
  if (name.length === 0) {
    errs.push('name part must be non-empty');
  } else {
    if (name.length > 63) {
      errs.push('name part must be no more than 63 characters');
    }
    if (!QUALIFIED_NAME.test(name)) {
      errs.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
    }
  }
  return errs;
}

/** Problems with a label value, or [] when valid. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) {
    errs.push('must be no more than 63 characters');
  }
  if (!LABEL_VALUE.test(value)) {
    errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  }
  return errs;
}

function nameRule(apiVersion: string, kind: string): { label: string; check: (v: string) => string[] } {
  if (apiVersion === 'v1' && kind === 'Service') {
    return { label: 'a DNS-1035 label', check: dns1035LabelErrors };
  }
  if (apiVersion === 'v1' && kind === 'Namespace') {
    return { label: 'a DNS-1123 label', check: dnsLabelErrors };
  }
  if (apiVersion.startsWith('rbac.authorization.k8s.io/')) {
    return { label: 'a path segment name', check: pathSegmentErrors };
  }
  return { label: 'a DNS-1123 subdomain', check: dnsSubdomainErrors };
}

function pathSegmentErrors(value: string): string[] {
  if (value === '.' || value === '..') {
    return [`may not be '${value}'`];
  }
  return /[/%]/.test(value) ? ["may not contain '/' or '%'"] : [];
}

function checkMetadata(obj: Json, apiVersion: string, kind: string, report: Report): void {
  const metadata = obj.metadata;
  if (!metadata || typeof metadata !== 'object') {
    report('metadata.name', 'required field is missing');
    return;
  }
  const name = metadata.name;
  if (name === undefined || name === '') {
    report('metadata.name', 'required field is missing');
  } else if (typeof name === 'string') {
    const rule = nameRule(apiVersion, kind);
    for (const m of rule.check(name)) {
      report('metadata.name', `${JSON.stringify(name)} is not ${rule.label}: ${m}`);
    }
  }
  if (typeof metadata.namespace === 'string') {
    for (const m of dnsLabelErrors(metadata.namespace)) {
      report('metadata.namespace', `${JSON.stringify(metadata.namespace)} is not a DNS-1123 label: ${m}`);
    }
  }
}

function checkLabelMap(labels: Json, at: string, report: Report): void {
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) {
    return;
  }
  for (const [key, value] of Object.entries(labels)) {
    const where = join(at, key, false);
    for (const m of qualifiedNameErrors(key)) {
      report(where, `label key ${JSON.stringify(key)} is invalid: ${m}`);
    }
    if (typeof value === 'string') {
      for (const m of labelValueErrors(value)) {
        report(where, `label value ${JSON.stringify(value)} is invalid: ${m}`);
      }
    }
  }
}

function checkAnnotations(annotations: Json, at: string, report: Report): void {
  if (!annotations || typeof annotations !== 'object' || Array.isArray(annotations)) {
    return;
  }
  let total = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const m of qualifiedNameErrors(key.toLowerCase())) {
      report(join(at, key, false), `annotation key ${JSON.stringify(key)} is invalid: ${m}`);
    }
    total += key.length + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (total > MAX_ANNOTATIONS_BYTES) {
    report(at, `annotations may not exceed ${MAX_ANNOTATIONS_BYTES} bytes in total (got ${total})`);
  }
}

/**
 * Labels and annotations wherever a `metadata` object appears (object, pod templates, embedded
 * resources), label selectors' `matchLabels`, and a Service's `spec.selector`.
 */
function checkNestedLabels(node: Json, at: string, report: Report, isRoot: boolean): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => checkNestedLabels(item, join(at, String(i), true), report, false));
    return;
  }
  if (!node || typeof node !== 'object') {
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    const here = join(at, key, false);
    if (key === 'metadata' && value && typeof value === 'object') {
      checkLabelMap((value as Json).labels, join(here, 'labels', false), report);
      checkAnnotations((value as Json).annotations, join(here, 'annotations', false), report);
    } else if (key === 'matchLabels' || key === 'nodeSelector') {
      checkLabelMap(value, here, report);
    } else if (isRoot && key === 'spec' && node.apiVersion === 'v1' && node.kind === 'Service' && value && typeof value === 'object') {
      checkLabelMap((value as Json).selector, join(here, 'selector', false), report);
    }
    if (value && typeof value === 'object') {
      checkNestedLabels(value, here, report, false);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Go-side rules of built-in kinds
// ---------------------------------------------------------------------------------------------

const APPS_WORKLOADS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet']);
/** Built-in kinds whose spec has required fields, so that an absent spec is rejected. */
const SPEC_REQUIRED = new Set([
  'apps/v1 Deployment', 'apps/v1 StatefulSet', 'apps/v1 ReplicaSet', 'apps/v1 DaemonSet',
  'batch/v1 Job', 'batch/v1 CronJob', 'v1 Pod', 'v1 PersistentVolumeClaim',
  'resource.k8s.io/v1 ResourceClaim', 'resource.k8s.io/v1 ResourceClaimTemplate',
]);

function checkBuiltInRules(obj: Json, apiVersion: string, kind: string, report: Report): void {
  const spec = obj.spec;
  if (spec === undefined && SPEC_REQUIRED.has(`${apiVersion} ${kind}`)) {
    // The API server validates the zero-valued spec: its required fields are missing.
    report('spec', 'required field is missing');
  }
  if (!spec || typeof spec !== 'object') {
    return;
  }
  if (apiVersion === 'apps/v1' && APPS_WORKLOADS.has(kind)) {
    checkSelectorMatchesTemplate(spec.selector, spec.template?.metadata?.labels, report);
  }
  const podSpecs: Array<[Json, string]> = [];
  if (apiVersion === 'v1' && kind === 'Pod') {
    podSpecs.push([spec, 'spec']);
  } else if (apiVersion === 'v1' && kind === 'PodTemplate') {
    podSpecs.push([obj.template?.spec, 'template.spec']);
  } else if ((apiVersion === 'apps/v1' && APPS_WORKLOADS.has(kind)) || (apiVersion === 'batch/v1' && kind === 'Job')) {
    podSpecs.push([spec.template?.spec, 'spec.template.spec']);
  } else if (apiVersion === 'batch/v1' && kind === 'CronJob') {
    podSpecs.push([spec.jobTemplate?.spec?.template?.spec, 'spec.jobTemplate.spec.template.spec']);
  }
  for (const [podSpec, at] of podSpecs) {
    checkPodSpec(podSpec, at, report);
    checkRestartPolicy(podSpec, at, apiVersion, kind, report);
  }
  if (apiVersion === 'v1' && kind === 'Service') {
    checkServicePorts(spec.ports, report);
  }
}

function checkSelectorMatchesTemplate(selector: Json, templateLabels: Json, report: Report): void {
  if (!selector || typeof selector !== 'object') {
    return; // The schema reports a missing selector.
  }
  const matchLabels = selector.matchLabels ?? {};
  const expressions: Json[] = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) {
    report('spec.selector', 'empty selector is invalid for this workload');
    return;
  }
  const labels: Record<string, string> = templateLabels && typeof templateLabels === 'object' ? templateLabels : {};
  const matches = Object.entries(matchLabels).every(([k, v]) => labels[k] === v) && expressions.every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e?.key);
    const values: string[] = Array.isArray(e?.values) ? e.values : [];
    switch (e?.operator) {
      case 'In': return has && values.includes(labels[e.key]);
      case 'NotIn': return !has || !values.includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
  if (!matches) {
    report('spec.template.metadata.labels', '`selector` does not match template `labels`');
  }
}

function checkPodSpec(podSpec: Json, at: string, report: Report): void {
  if (!podSpec || typeof podSpec !== 'object') {
    return;
  }
  const names = new Set<string>();
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = podSpec[field];
    if (!Array.isArray(containers)) {
      continue;
    }
    containers.forEach((c: Json, i: number) => {
      const here = `${at}.${field}[${i}]`;
      if (typeof c?.name === 'string') {
        for (const m of dnsLabelErrors(c.name)) {
          report(`${here}.name`, `${JSON.stringify(c.name)} is not a DNS-1123 label: ${m}`);
        }
        if (names.has(c.name)) {
          report(`${here}.name`, `duplicate container name ${JSON.stringify(c.name)}`);
        }
        names.add(c.name);
      }
      const portNames = new Set<string>();
      (Array.isArray(c?.ports) ? c.ports : []).forEach((p: Json, j: number) => {
        if (typeof p?.name !== 'string') {
          return;
        }
        for (const m of ianaServiceNameErrors(p.name)) {
          report(`${here}.ports[${j}].name`, `${JSON.stringify(p.name)} is not an IANA service name: ${m}`);
        }
        if (portNames.has(p.name)) {
          report(`${here}.ports[${j}].name`, `duplicate port name ${JSON.stringify(p.name)}`);
        }
        portNames.add(p.name);
      });
    });
  }
}

/** Workload controllers only accept some pod restart policies (the pod default is Always). */
function checkRestartPolicy(podSpec: Json, at: string, apiVersion: string, kind: string, report: Report): void {
  if (!podSpec || typeof podSpec !== 'object') {
    return;
  }
  const policy = podSpec.restartPolicy ?? 'Always';
  const allowed = apiVersion === 'batch/v1' ? ['OnFailure', 'Never'] : apiVersion === 'apps/v1' ? ['Always'] : undefined;
  if (allowed && typeof policy === 'string' && !allowed.includes(policy)) {
    const got = podSpec.restartPolicy === undefined ? 'nothing (defaults to "Always")' : JSON.stringify(policy);
    report(`${at}.restartPolicy`, `a ${kind} pod template must set ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, got ${got}`);
  }
}

/** Problems with an IANA service name (container port names, named target ports). */
export function ianaServiceNameErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 15) {
    errs.push('must be no more than 15 characters');
  }
  if (!IANA_SVC_NAME.test(value)) {
    errs.push("must contain only lower case alphanumeric characters or '-' and start and end with an alphanumeric character");
  }
  if (value.includes('--')) {
    errs.push("must not contain consecutive hyphens ('--')");
  }
  if (!/[a-z]/.test(value)) {
    errs.push('must contain at least one letter');
  }
  return errs;
}

function checkServicePorts(ports: Json, report: Report): void {
  if (!Array.isArray(ports)) {
    return;
  }
  const names = new Set<string>();
  ports.forEach((p: Json, i: number) => {
    const here = `spec.ports[${i}]`;
    if (ports.length > 1 && (typeof p?.name !== 'string' || p.name === '')) {
      report(`${here}.name`, 'required when a Service has more than one port');
    }
    if (typeof p?.name === 'string' && p.name !== '') {
      for (const m of dnsLabelErrors(p.name)) {
        report(`${here}.name`, `${JSON.stringify(p.name)} is not a DNS-1123 label: ${m}`);
      }
      if (names.has(p.name)) {
        report(`${here}.name`, `duplicate port name ${JSON.stringify(p.name)}`);
      }
      names.add(p.name);
    }
    if (typeof p?.targetPort === 'string') {
      for (const m of ianaServiceNameErrors(p.targetPort)) {
        report(`${here}.targetPort`, `${JSON.stringify(p.targetPort)} is not an IANA service name: ${m}`);
      }
    } else if (typeof p?.targetPort === 'number' && (p.targetPort < 1 || p.targetPort > 65535)) {
      report(`${here}.targetPort`, `must be between 1 and 65535, got ${p.targetPort}`);
    }
    if (typeof p?.port === 'number' && (p.port < 1 || p.port > 65535)) {
      report(`${here}.port`, `must be between 1 and 65535, got ${p.port}`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// CEL validation rules (x-kubernetes-validations)
// ---------------------------------------------------------------------------------------------

/** How a rule is handled when an object is created. */
export type CelRuleStatus =
  /** Evaluated with @bufbuild/cel. */
  | 'evaluated'
  /** Uses `oldSelf` (without `optionalOldSelf`): the API server runs it on update only. */
  | 'transition'
  /** Uses something @bufbuild/cel cannot evaluate as Kubernetes does: never evaluated, never fails. */
  | 'unsupported';

/** One rule of one kind: where it is declared and how it is handled. */
export interface CelRuleInfo {
  readonly apiVersion: string;
  readonly kind: string;
  /** Schema path of the node that declares the rule; `[*]` stands for list items and map values. */
  readonly path: string;
  readonly rule: string;
  readonly status: CelRuleStatus;
  /** What an unsupported rule uses that cannot be evaluated. */
  readonly reason?: string;
}

/** How many of one kind's rules are evaluated. */
export interface CelKindCoverage {
  readonly apiVersion: string;
  readonly kind: string;
  readonly rules: number;
  readonly evaluated: number;
  readonly transition: number;
  readonly unsupported: number;
}

/** A rule evaluation that could not decide (never reported as a violation), counted by cause. */
export interface CelUndecided {
  readonly apiVersion: string;
  readonly kind: string;
  readonly path: string;
  readonly rule: string;
  readonly reason: string;
  readonly count: number;
}

/** What the CEL check did in this process (in jest: in this test file). */
export interface CelRuleStats {
  /** Every kind with rules that was validated, or passed to `celRuleCoverage`. */
  kinds: CelKindCoverage[];
  /** The unsupported rules of those kinds, with the reason. */
  unsupported: CelRuleInfo[];
  /** Distinct rule and messageExpression texts compiled (each once), and the time that took. */
  compiled: number;
  compileMs: number;
  /** Rule evaluations, and the milliseconds spent converting values and evaluating rules. */
  evaluations: number;
  evalMs: number;
  /** Evaluations that ended in an error Kubernetes would not raise (see `UNDECIDED_ERROR`). */
  undecided: CelUndecided[];
}

type CelProgram = (bindings: { self: unknown }) => unknown;

interface CompiledCel {
  readonly status: CelRuleStatus;
  readonly program?: CelProgram;
  readonly reason?: string;
}

/** A kind's rules and the schema path of the node declaring each; compiled on first use. */
interface CelKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly paths: Map<CelRule, string>;
}

/** @bufbuild/cel and the environment rules are evaluated in. */
interface CelRuntime {
  readonly lib: typeof CelLib;
  /**
   * The standard library plus the strings extension (Kubernetes enables strings v2; the other
   * Kubernetes libraries — lists, regex find, URLs, IPs, CIDRs, quantities, semver, format,
   * optionals — have no counterpart here, and rules that call them are unsupported).
   */
  readonly env: CelLib.CelEnv;
}
/** Calls the planner implements itself rather than through the function registry. */
const CEL_PLANNER_CALLS = new Set(['_[_]', '_?_:_', '_&&_', '_||_', '@not_strictly_false', '__not_strictly_false__']);
/** Type names, which are values in CEL (`type(x) == string`). */
const CEL_TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);
/**
 * Run-time errors that mean "this evaluator does not know how", not "the value is wrong": a
 * function missing for the operand types (e.g. the Kubernetes lists extension's `indexOf` on a
 * list, which shares its name with the strings one). The API server type-checks rules when the
 * CRD is created, so it never reports these for a CRD it accepted.
 */
const UNDECIDED_ERROR = /^(unbound function|found no matching overload)/;
/** CEL reserved words: Kubernetes exposes such property names as `__name__`. */
const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);
const CEL_REASONS: Record<string, string> = {
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
};
/** Marks a value that does not fit its schema (Ajv reports it); rules that see it are not run. */
const CEL_INVALID = Symbol('invalid');
/** Marks a value this evaluator cannot represent (an unparsable format); rules that see it are undecided. */
const CEL_OPAQUE = Symbol('opaque');

const compiledCel = new Map<string, CompiledCel>();
const celKinds = new WeakMap<CelSchema, CelKind>();
const celKindsByGvk = new Map<string, CelKind>();
const celUndecided = new Map<string, CelUndecided>();
const celCounters = { compileMs: 0, evaluations: 0, evalMs: 0 };
let celFormatPrograms: { duration: CelProgram; timestamp: CelProgram } | undefined;
let celRuntime: CelRuntime | undefined;

/**
 * @bufbuild/cel, loaded on first use: most validated objects are built-in kinds without rules,
 * and loading it costs tens of milliseconds in each jest test file.
 */
function cel(): CelRuntime {
  if (!celRuntime) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const lib: typeof CelLib = require('@bufbuild/cel');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ext: typeof CelExt = require('@bufbuild/cel/ext');
    celRuntime = { lib, env: lib.celEnv({ funcs: ext.strings }) };
  }
  return celRuntime;
}

/** Counters of the CEL check in this process. */
export function celRuleStats(): CelRuleStats {
  const kinds = [...celKindsByGvk.values()].map(celKindReport);
  return {
    kinds: kinds.map((k) => k.coverage),
    unsupported: kinds.flatMap((k) => k.rules.filter((i) => i.status === 'unsupported')),
    compiled: compiledCel.size,
    compileMs: celCounters.compileMs,
    evaluations: celCounters.evaluations,
    evalMs: celCounters.evalMs,
    undecided: [...celUndecided.values()].map((u) => ({ ...u })),
  };
}

/**
 * Compile every rule of apiVersion+kind and say how each is handled; undefined when the kind has
 * no rules (or no upstream schema).
 */
export function celRuleCoverage(apiVersion: string, kind: string): { coverage: CelKindCoverage; rules: CelRuleInfo[] } | undefined {
  const schema = upstreamCelSchema(apiVersion, kind);
  if (!schema) {
    return undefined;
  }
  return celKindReport(celKindOf(apiVersion, kind, schema));
}

/** Compile every rule of a kind (cached) and say how each is handled. */
function celKindReport(k: CelKind): { coverage: CelKindCoverage; rules: CelRuleInfo[] } {
  const rules: CelRuleInfo[] = [...k.paths].map(([rule, path]) => {
    const compiled = compileCel(rule.rule, rule.optionalOldSelf === true);
    const info: CelRuleInfo = { apiVersion: k.apiVersion, kind: k.kind, path, rule: rule.rule, status: compiled.status };
    return compiled.reason ? { ...info, reason: compiled.reason } : info;
  });
  const count = (s: CelRuleStatus) => rules.filter((i) => i.status === s).length;
  return {
    coverage: { apiVersion: k.apiVersion, kind: k.kind, rules: rules.length, evaluated: count('evaluated'), transition: count('transition'), unsupported: count('unsupported') },
    rules,
  };
}

/**
 * Evaluate the kind's CEL rules the way the API server does on create (apiextensions-apiserver
 * and apiserver/pkg/cel/common `UnstructuredToVal`): on the object after structural defaulting
 * (a non-nullable null is pruned, then defaulted; a nullable null is kept and reads as absent),
 * each rule at the node that declares it with `self` bound to the value there (only where a value
 * is present); integers as CEL ints, numbers as doubles (also when integral), int-or-string as
 * either, strings of format byte/duration/date/date-time as bytes/durations/timestamps; declared
 * property names escaped (`namespace` -> `__namespace__`) and undeclared ones invisible, map keys
 * as they are; at the root and in embedded resources apiVersion, kind and metadata.name and
 * metadata.generateName only. Values that do not fit the schema (Ajv reports them) skip the rules
 * that see them.
 *
 * Known differences: lists of x-kubernetes-list-type set/map compare as ordered lists in `==`;
 * `size()` of an object counts its declared fields (Kubernetes counts every field present); the
 * API server's cost limits are not applied; messages of run-time errors are @bufbuild/cel's
 * (`field not found: x` where Kubernetes says `no such key: x`).
 */
function checkCelRules(obj: Json, apiVersion: string, kind: string, report: Report): void {
  const schema = upstreamCelSchema(apiVersion, kind);
  if (!schema) {
    return;
  }
  const k = celKindOf(apiVersion, kind, schema);
  const started = performance.now();
  celVisit(schema, obj, '', false, { kind: k, report }, true);
  celCounters.evalMs += performance.now() - started;
}

function celKindOf(apiVersion: string, kind: string, schema: CelSchema): CelKind {
  let k = celKinds.get(schema);
  if (k) {
    return k;
  }
  const paths = new Map<CelRule, string>();
  const walk = (node: CelSchema, at: string) => {
    for (const rule of node['x-kubernetes-validations'] ?? []) {
      paths.set(rule, at || '(root)');
    }
    for (const [name, sub] of Object.entries(node.properties ?? {})) {
      walk(sub, join(at, name, false));
    }
    if (node.items) {
      walk(node.items, `${at}[*]`);
    }
    if (node.additionalProperties) {
      walk(node.additionalProperties, `${at}[*]`);
    }
  };
  walk(schema, '');
  k = { apiVersion, kind, paths };
  celKinds.set(schema, k);
  celKindsByGvk.set(`${apiVersion} ${kind}`, k);
  return k;
}

// --- Compiling ---------------------------------------------------------------------------------

/** Compile (once per process) a rule or message expression. */
function compileCel(expression: string, optionalOldSelf: boolean): CompiledCel {
  const key = `${optionalOldSelf ? '?' : '-'}${expression}`;
  let compiled = compiledCel.get(key);
  if (!compiled) {
    const started = performance.now();
    compiled = compileCelUncached(expression, optionalOldSelf);
    celCounters.compileMs += performance.now() - started;
    compiledCel.set(key, compiled);
  }
  return compiled;
}

function compileCelUncached(expression: string, optionalOldSelf: boolean): CompiledCel {
  const { lib, env } = cel();
  let parsed: ReturnType<typeof lib.parse>;
  try {
    parsed = lib.parse(expression);
  } catch (e) {
    return { status: 'unsupported', reason: `@bufbuild/cel cannot parse it (${errorText(e)})` };
  }
  const scan = { oldSelf: false, unsupported: new Set<string>() };
  scanCel(parsed.expr, new Set(), optionalOldSelf, scan);
  if (scan.oldSelf && !optionalOldSelf) {
    return { status: 'transition' };
  }
  if (scan.oldSelf) {
    // optionalOldSelf: at create oldSelf is optional.none(); only hasValue()/orValue() are rewritten.
    scan.unsupported.add('oldSelf as an optional value');
  }
  if (scan.unsupported.size > 0) {
    return { status: 'unsupported', reason: [...scan.unsupported].join(', ') };
  }
  try {
    return { status: 'evaluated', program: lib.plan(env, parsed) as unknown as CelProgram };
  } catch (e) {
    return { status: 'unsupported', reason: `@bufbuild/cel cannot plan it (${errorText(e)})` };
  }
}

/**
 * Find what the expression uses that the environment lacks, and whether it reads `oldSelf`.
 * With `optionalOldSelf` (rules the API server also runs on create, with oldSelf =
 * optional.none()), `oldSelf.hasValue()` is replaced by `false` and `oldSelf.orValue(v)` by `v`.
 */
function scanCel(expr: Json, scope: ReadonlySet<string>, optionalOldSelf: boolean, scan: { oldSelf: boolean; unsupported: Set<string> }): void {
  if (!expr) {
    return;
  }
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'constExpr':
      return;
    case 'identExpr': {
      const name: string = kind.value.name;
      if (scope.has(name) || name === 'self' || CEL_TYPE_NAMES.has(name)) {
        return;
      }
      if (name === 'oldSelf') {
        scan.oldSelf = true;
      } else {
        scan.unsupported.add(`identifier ${name}`);
      }
      return;
    }
    case 'selectExpr':
      scanCel(kind.value.operand, scope, optionalOldSelf, scan);
      return;
    case 'callExpr': {
      const call = kind.value;
      const onOldSelf = optionalOldSelf && !scope.has('oldSelf')
        && call.target?.exprKind.case === 'identExpr' && call.target.exprKind.value.name === 'oldSelf';
      if (onOldSelf && call.function === 'hasValue' && call.args.length === 0) {
        expr.exprKind = { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'boolValue', value: false } } };
        return;
      }
      if (onOldSelf && call.function === 'orValue' && call.args.length === 1) {
        expr.exprKind = call.args[0].exprKind;
        scanCel(expr, scope, optionalOldSelf, scan);
        return;
      }
      if (call.function === '_?._' || call.function === '_[?_]') {
        scan.unsupported.add('optional field selection');
      } else if (!CEL_PLANNER_CALLS.has(call.function)) {
        const qualified = call.target ? qualifiedCelName(call.target, scope) : undefined;
        if (qualified !== undefined && cel().env.funcs.find(`${qualified}.${call.function}`)) {
          call.args.forEach((a: Json) => scanCel(a, scope, optionalOldSelf, scan));
          return; // e.g. strings.quote(x): the target is a namespace, not a value.
        }
        if (!celFunctionKnown(call.function, call.target !== undefined, call.args.length)) {
          scan.unsupported.add(`${call.target ? '.' : ''}${call.function}()`);
        }
      }
      scanCel(call.target, scope, optionalOldSelf, scan);
      call.args.forEach((a: Json) => scanCel(a, scope, optionalOldSelf, scan));
      return;
    }
    case 'listExpr':
      if (kind.value.optionalIndices.length > 0) {
        scan.unsupported.add('optional list elements');
      }
      kind.value.elements.forEach((e: Json) => scanCel(e, scope, optionalOldSelf, scan));
      return;
    case 'structExpr':
      if (kind.value.messageName) {
        scan.unsupported.add(`object construction ${kind.value.messageName}{}`);
      }
      for (const entry of kind.value.entries) {
        if (entry.optionalEntry) {
          scan.unsupported.add('optional map entries');
        }
        if (entry.keyKind.case === 'mapKey') {
          scanCel(entry.keyKind.value, scope, optionalOldSelf, scan);
        }
        scanCel(entry.value, scope, optionalOldSelf, scan);
      }
      return;
    case 'comprehensionExpr': {
      const c = kind.value;
      if (c.iterVar2) {
        scan.unsupported.add('two-variable comprehension');
      }
      scanCel(c.iterRange, scope, optionalOldSelf, scan);
      scanCel(c.accuInit, scope, optionalOldSelf, scan);
      const inner = new Set([...scope, c.iterVar, c.accuVar, ...(c.iterVar2 ? [c.iterVar2] : [])]);
      scanCel(c.loopCondition, inner, optionalOldSelf, scan);
      scanCel(c.loopStep, inner, optionalOldSelf, scan);
      scanCel(c.result, inner, optionalOldSelf, scan);
      return;
    }
    default:
      scan.unsupported.add(`expression kind ${String(kind.case)}`);
  }
}

/** `a.b.c` when the expression is a chain of selections on an identifier that is not a variable. */
function qualifiedCelName(expr: Json, scope: ReadonlySet<string>): string | undefined {
  const kind = expr?.exprKind;
  if (kind?.case === 'identExpr') {
    const name: string = kind.value.name;
    return scope.has(name) || name === 'self' || name === 'oldSelf' ? undefined : name;
  }
  if (kind?.case === 'selectExpr' && !kind.value.testOnly) {
    const operand = qualifiedCelName(kind.value.operand, scope);
    return operand === undefined ? undefined : `${operand}.${kind.value.field}`;
  }
  return undefined;
}

/** Whether the environment has a function of that name, call style (global or method) and arity. */
function celFunctionKnown(name: string, isMethod: boolean, arity: number): boolean {
  const group = cel().env.funcs.find(name);
  if (!group) {
    return false;
  }
  for (const f of group) {
    if ((f.target !== undefined) === isMethod && f.arguments.length === arity) {
      return true;
    }
  }
  return false;
}

// --- Evaluating ----------------------------------------------------------------------------------

interface CelWalk {
  readonly kind: CelKind;
  readonly report: Report;
}

/**
 * Evaluate the rules at and below `node` and return the node's CEL value when `want` (an
 * ancestor's rule sees it) or the node has rules itself; below such nodes the schema was not
 * pruned, elsewhere only the paths to rules remain.
 */
function celVisit(node: CelSchema, value: Json, at: string, want: boolean, w: CelWalk, resource: boolean): unknown {
  const rules = node['x-kubernetes-validations'];
  const need = want || rules !== undefined;
  const self = celValue(node, value, at, need, w, resource || node['x-kubernetes-embedded-resource'] === true);
  if (rules) {
    evaluateCelRules(rules, self, at, w);
  }
  return need ? self : undefined;
}

function celValue(node: CelSchema, value: Json, at: string, need: boolean, w: CelWalk, resource: boolean): unknown {
  if (value === null) {
    return node.nullable ? null : CEL_INVALID;
  }
  if (node['x-kubernetes-int-or-string']) {
    if (typeof value === 'string') {
      return value;
    }
    return Number.isInteger(value) ? BigInt(value) : CEL_INVALID;
  }
  const type = node.type ?? (node.properties || node.additionalProperties || resource ? 'object' : node.items ? 'array' : undefined);
  switch (type) {
    case 'object':
      return value && typeof value === 'object' && !Array.isArray(value) ? celObject(node, value, at, need, w, resource) : CEL_INVALID;
    case 'array': {
      if (!Array.isArray(value)) {
        return CEL_INVALID;
      }
      const items = node.items;
      if (!need) {
        value.forEach((item, i) => items && celVisit(items, item, join(at, String(i), true), false, w, false));
        return undefined;
      }
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const v = items ? celVisit(items, value[i], join(at, String(i), true), true, w, false) : celUntyped(value[i]);
        if (v === CEL_INVALID || v === CEL_OPAQUE) {
          return v;
        }
        out.push(v);
      }
      return out;
    }
    case 'string':
      return typeof value === 'string' ? celString(node.format, value) : CEL_INVALID;
    case 'integer':
      return Number.isInteger(value) ? BigInt(value) : CEL_INVALID;
    case 'number':
      return typeof value === 'number' ? value : CEL_INVALID;
    case 'boolean':
      return typeof value === 'boolean' ? value : CEL_INVALID;
    default:
      return need ? celUntyped(value) : undefined;
  }
}

function celObject(node: CelSchema, value: Json, at: string, need: boolean, w: CelWalk, resource: boolean): unknown {
  const out = need ? new Map<string, unknown>() : undefined;
  let bad: symbol | undefined;
  const put = (key: string | undefined, v: unknown) => {
    if (v === CEL_INVALID || v === CEL_OPAQUE) {
      bad = bad === CEL_INVALID ? bad : v;
    } else if (out && key !== undefined) {
      out.set(key, v);
    }
  };
  if (node.properties) {
    for (const [name, sub] of Object.entries(node.properties)) {
      if (resource && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) {
        continue;
      }
      let child = value[name];
      if (child === null) {
        if (sub.nullable) {
          continue; // Kept as null, not defaulted; CEL treats a null property as absent.
        }
        child = undefined; // The API server prunes it, then defaults.
      }
      if (child === undefined) {
        child = sub.default;
      }
      if (child !== undefined) {
        put(escapeCelName(name), celVisit(sub, child, join(at, name, false), need, w, false));
      }
    }
  } else if (node.additionalProperties) {
    for (const [key, child] of Object.entries(value)) {
      put(key, celVisit(node.additionalProperties, child, join(at, key, false), need, w, false));
    }
  }
  // An object with x-kubernetes-preserve-unknown-fields and no properties is an empty object to CEL.
  if (out && resource) {
    for (const field of ['apiVersion', 'kind']) {
      if (typeof value[field] === 'string') {
        out.set(field, value[field]);
      }
    }
    const metadata = value.metadata;
    if (metadata && typeof metadata === 'object') {
      out.set('metadata', new Map(['name', 'generateName'].filter((f) => typeof metadata[f] === 'string').map((f) => [f, metadata[f]])));
    }
  }
  return bad ?? out;
}

function celString(format: string | undefined, value: string): unknown {
  switch (format) {
    case 'byte':
      return new Uint8Array(Buffer.from(value, 'base64'));
    case 'duration':
      return celFormatted('duration', value);
    case 'date-time':
      return celFormatted('timestamp', value);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? celFormatted('timestamp', `${value}T00:00:00Z`) : CEL_OPAQUE;
    default:
      return value;
  }
}

/**
 * A duration or timestamp parsed by @bufbuild/cel's own conversion functions. Kubernetes parses
 * these formats with go-openapi's strfmt, which accepts more spellings ("1 day"): anything
 * @bufbuild/cel does not parse is opaque, and rules that see it are undecided.
 */
function celFormatted(fn: 'duration' | 'timestamp', value: string): unknown {
  const { lib, env } = cel();
  celFormatPrograms ??= {
    duration: lib.plan(env, lib.parse('duration(self)')) as unknown as CelProgram,
    timestamp: lib.plan(env, lib.parse('timestamp(self)')) as unknown as CelProgram,
  };
  const result = celFormatPrograms[fn]({ self: value });
  return cel().lib.isCelError(result) ? CEL_OPAQUE : result;
}

/**
 * Values without a type (x-kubernetes-preserve-unknown-fields without type, which Kubernetes
 * exposes for equality only): integral numbers are ints, as Kubernetes decodes JSON.
 */
function celUntyped(value: Json): unknown {
  if (Array.isArray(value)) {
    return value.map(celUntyped);
  }
  if (value && typeof value === 'object') {
    return new Map(Object.entries(value).map(([k, v]) => [k, celUntyped(v)]));
  }
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
}

/** Kubernetes' escaping of property names in CEL (apiserver/pkg/cel/escaping.go); undefined when not accessible. */
function escapeCelName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) {
    return undefined;
  }
  if (CEL_RESERVED.has(name)) {
    return `__${name}__`;
  }
  let ok = true;
  const escaped = name.replace(/__|[-./]|[^a-zA-Z0-9\-./_]/g, (m) => {
    switch (m) {
      case '__': return '__underscores__';
      case '.': return '__dot__';
      case '-': return '__dash__';
      case '/': return '__slash__';
      default:
        ok = false;
        return '';
    }
  });
  return ok ? escaped : undefined;
}

function evaluateCelRules(rules: CelRule[], self: unknown, at: string, w: CelWalk): void {
  for (const rule of rules) {
    const compiled = compileCel(rule.rule, rule.optionalOldSelf === true);
    if (compiled.status !== 'evaluated' || self === CEL_INVALID) {
      continue;
    }
    if (self === CEL_OPAQUE) {
      celUndecidedAt(w, rule, 'it sees a duration or date that @bufbuild/cel cannot parse');
      continue;
    }
    celCounters.evaluations++;
    let result: unknown;
    try {
      result = compiled.program!({ self });
    } catch (e) {
      celUndecidedAt(w, rule, `@bufbuild/cel threw: ${errorText(e)}`);
      continue;
    }
    if (result === true) {
      continue;
    }
    if (result === false) {
      const reason = rule.reason ? CEL_REASONS[rule.reason] : undefined;
      const message = celFailureMessage(rule, self);
      w.report(celFieldPath(at, rule.fieldPath), reason ? `${reason}: ${message}` : message);
    } else if (cel().lib.isCelError(result)) {
      if (UNDECIDED_ERROR.test(result.message)) {
        celUndecidedAt(w, rule, result.message);
      } else {
        // A run-time error (a missing key, an index out of range ...) rejects the object.
        w.report(at, `${result.message} evaluating rule: ${rule.message?.trim() || rule.rule.trim()}`);
      }
    } else {
      celUndecidedAt(w, rule, `the rule returned ${typeof result}, not a boolean`);
    }
  }
}

/** messageExpression (when it evaluates to a non-blank single-line string), else message, else the rule. */
function celFailureMessage(rule: CelRule, self: unknown): string {
  if (rule.messageExpression) {
    const compiled = compileCel(rule.messageExpression, rule.optionalOldSelf === true);
    try {
      const text = compiled.program?.({ self });
      if (typeof text === 'string' && text.trim() !== '' && !text.includes('\n')) {
        return text;
      }
    } catch {
      // Fall back as the API server does when a message expression fails.
    }
  }
  return rule.message?.trim() ? rule.message.trim() : `failed rule: ${rule.rule.trim()}`;
}

/** The node path extended by a rule's `fieldPath` (`.a.b`, `['c.d']`, `[0]`). */
function celFieldPath(at: string, fieldPath: string | undefined): string {
  if (!fieldPath) {
    return at;
  }
  const segment = /\.([^.[\]]+)|\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[(\d+)\]/y;
  let out = at;
  let i = 0;
  while (i < fieldPath.length) {
    segment.lastIndex = i;
    const m = segment.exec(fieldPath);
    if (!m) {
      return `${at}${fieldPath.startsWith('.') || fieldPath.startsWith('[') || !at ? '' : '.'}${fieldPath}`;
    }
    out = m[4] !== undefined ? join(out, m[4], true) : join(out, m[1] ?? m[2] ?? m[3], false);
    i = segment.lastIndex;
  }
  return out;
}

function celUndecidedAt(w: CelWalk, rule: CelRule, reason: string): void {
  const { apiVersion, kind } = w.kind;
  const path = w.kind.paths.get(rule) ?? '';
  const key = `${apiVersion} ${kind}\u0000${path}\u0000${rule.rule}\u0000${reason}`;
  const known = celUndecided.get(key);
  celUndecided.set(key, { apiVersion, kind, path, rule: rule.rule, reason, count: (known?.count ?? 0) + 1 });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
