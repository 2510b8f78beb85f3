/**
 * Schema conformance for synthesized manifests.
 *
 * `validateManifest(obj)` checks one object the way the Kubernetes API server would accept it,
 * except that unknown fields (which the API server silently prunes) are reported as errors:
 * - the upstream schema of its apiVersion+kind (see schema-conversion.ts for what is encoded
 *   and for the known gaps);
 * - the CRD's `x-kubernetes-validations` CEL rules, evaluated with @bufbuild/cel as the API server
 *   does on create (see `checkCelRules` in cel-validation.ts): each rule at the node declaring
 *   it, with `self` bound to the value there when one is present, after structural defaulting.
 *   A false rule reports its messageExpression/message (`failed rule: <rule>` without one) at the
 *   node, extended by its `fieldPath`, prefixed by its `reason` unless that is FieldValueInvalid;
 *   a run-time error (a missing key without `has()`, an index out of range) reports
 *   `<error> evaluating rule: ...`.
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
 *   must be present;
 * - the pod rules of the API server wherever a pod spec is embedded (tolerations, environment
 *   variable names, volume mounts naming a volume of the pod), finite numbers only, and at most
 *   1.5 MiB of JSON per object.
 *
 * Where each check lives: upstream-schemas.ts (registry) and schema-conversion.ts (JSON Schema,
 * with the known gaps), ajv-errors.ts (messages), kubernetes-names.ts (names, labels,
 * annotations), builtin-kind-rules.ts (Go-side rules of built-in kinds), pod-rules.ts (Go-side pod rules),
 * finite-numbers.ts, object-size.ts, cel-validation.ts (CEL).
 */
import { describeValue, explainErrors } from './ajv-errors';
import { checkBuiltInRules } from './builtin-kind-rules';
import { checkCelRules } from './cel-validation';
import { checkFiniteNumbers } from './finite-numbers';
import { objectSizeProblem } from './object-size';
import { checkPodRules } from './pod-rules';
import { upstreamValidator } from './upstream-schemas';
import { checkMetadata, checkNestedLabels } from '../core/kubernetes-names';

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
  checkPodRules(obj, report);
  checkFiniteNumbers(obj, '', report);
  const tooLarge = objectSizeProblem(obj);
  if (tooLarge) report('', tooLarge);
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
