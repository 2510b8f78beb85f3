/**
 * Kubernetes names, labels and annotations (apimachinery validation, which the API server runs in
 * Go, not from the OpenAPI schema): DNS-1123 labels and subdomains, DNS-1035 labels, qualified
 * names (label and annotation keys), label values, IANA service names, path segment names; and
 * the checks applying them to an object's metadata, to nested `metadata` (pod templates,
 * embedded resources), `matchLabels`, `nodeSelector` and a Service's `spec.selector`.
 */
import { joinPath, Report, WalkedPlace, walkedPath } from './field-path';
import { quoted } from './quoted-value';

type Json = any;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

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

/** What Kubernetes reserves for quota names: `requests.<resource>`. */
const QUOTA_REQUESTS_PREFIX = 'requests.';
/** The namespace of native resources (`kubernetes.io/...`). */
const NATIVE_RESOURCE_NAMESPACE = 'kubernetes.io/';

/**
 * Problems with an extended resource name (`nvidia.com/gpu`, `amd.com/gpu`,
 * `nvidia.com/mig-1g.10gb`), or [] when valid: apimachinery's `IsExtendedResourceName`, i.e. a
 * domain-prefixed qualified name outside the `kubernetes.io/` namespace and not starting with
 * `requests.`, that is still a qualified name once quota prefixes it with `requests.`. The API
 * server refuses a container resource name that is neither native nor extended.
 */
export function extendedResourceNameErrors(value: string): string[] {
  if (!value.includes('/')) {
    return ['it has no domain prefix (a name without one is a native resource such as cpu or memory)'];
  }
  const errs: string[] = [];
  if (value.includes(NATIVE_RESOURCE_NAMESPACE)) {
    errs.push(`the ${NATIVE_RESOURCE_NAMESPACE} namespace is reserved for native resources`);
  }
  if (value.startsWith(QUOTA_REQUESTS_PREFIX)) {
    errs.push(`the ${JSON.stringify(QUOTA_REQUESTS_PREFIX)} prefix is reserved for resource quota`);
  }
  errs.push(...qualifiedNameErrors(value));
  // Quota names it `requests.<name>`, which must still be a qualified name: 9 characters fewer
  // for the prefix than the 253 of a DNS subdomain.
  const prefix = value.split('/')[0];
  const maxPrefix = 253 - QUOTA_REQUESTS_PREFIX.length;
  if (prefix.length > maxPrefix && prefix.length <= 253) {
    errs.push(`prefix part must be no more than ${maxPrefix} characters`);
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

/** `metadata.name` (per the kind's naming rule) and `metadata.namespace`. */
export function checkMetadata(obj: Json, apiVersion: string, kind: string, report: Report): void {
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
      report('metadata.name', `${quoted(name)} is not ${rule.label}: ${m}`);
    }
  }
  if (typeof metadata.namespace === 'string') {
    for (const m of dnsLabelErrors(metadata.namespace)) {
      report('metadata.namespace', `${quoted(metadata.namespace)} is not a DNS-1123 label: ${m}`);
    }
  }
}

/**
 * Label keys found valid. Every object of a synthesis carries the same few keys (`app`,
 * `airunway.ai/model-deployment`, ...), so each is checked once; bounded, so that no input grows
 * it without end.
 */
const VALID_LABEL_KEYS = new Set<string>();
const MAX_REMEMBERED_KEYS = 10_000;

function labelKeyErrors(key: string): string[] {
  if (VALID_LABEL_KEYS.has(key)) return [];
  const errors = qualifiedNameErrors(key);
  if (errors.length === 0 && VALID_LABEL_KEYS.size < MAX_REMEMBERED_KEYS) VALID_LABEL_KEYS.add(key);
  return errors;
}

function checkLabelMap(labels: Json, at: string, report: Report): void {
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) {
    return;
  }
  for (const [key, value] of Object.entries(labels)) {
    const where = joinPath(at, key, false);
    for (const m of labelKeyErrors(key)) {
      report(where, `label key ${quoted(key)} is invalid: ${m}`);
    }
    if (typeof value === 'string') {
      for (const m of labelValueErrors(value)) {
        report(where, `label value ${quoted(value)} is invalid: ${m}`);
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
      report(joinPath(at, key, false), `annotation key ${quoted(key)} is invalid: ${m}`);
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
export function checkNestedLabels(node: Json, at: string, report: Report, isRoot: boolean): void {
  checkLabelsBelow(node, at, undefined, report, isRoot);
}

function checkLabelsBelow(node: Json, base: string, place: WalkedPlace | undefined, report: Report, isRoot: boolean): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => checkLabelsBelow(item, base, { above: place, segment: i }, report, false));
    return;
  }
  if (!node || typeof node !== 'object') {
    return;
  }
  for (const key of Object.keys(node)) {
    const value = node[key];
    // Only objects hold labels: the walk spends nothing on scalars (most fields).
    if (!value || typeof value !== 'object') continue;
    const here: WalkedPlace = { above: place, segment: key };
    if (key === 'metadata') {
      const at = walkedPath(base, here);
      checkLabelMap((value as Json).labels, joinPath(at, 'labels', false), report);
      checkAnnotations((value as Json).annotations, joinPath(at, 'annotations', false), report);
    } else if (key === 'matchLabels' || key === 'nodeSelector') {
      checkLabelMap(value, walkedPath(base, here), report);
    } else if (isRoot && key === 'spec' && node.apiVersion === 'v1' && node.kind === 'Service') {
      checkLabelMap((value as Json).selector, joinPath(walkedPath(base, here), 'selector', false), report);
    }
    checkLabelsBelow(value, base, here, report, false);
  }
}
