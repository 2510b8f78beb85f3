/**
 * Schema conformance for synthesized manifests.
 *
 * `validateManifest(obj)` checks one object the way the Kubernetes API server would accept it,
 * except that unknown fields (which the API server silently prunes) are reported as errors:
 * - the upstream schema of its apiVersion+kind (see upstream-schemas.ts for what is encoded
 *   and for the known gaps, notably `x-kubernetes-validations` CEL rules are not evaluated);
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
import type { ErrorObject } from 'ajv';
import { upstreamValidator } from './upstream-schemas';

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
