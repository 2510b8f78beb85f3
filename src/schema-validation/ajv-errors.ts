/**
 * Ajv errors -> readable violations: one message per problem, at the path of the offending value
 * (an anyOf/oneOf failure as one message built from its branches, a value of the wrong type as
 * its type only).
 */
import type { ErrorObject } from 'ajv';
import { joinPath } from '../core/field-path';

type Json = any;

/** A message at a path, before it is attributed to an object. */
export interface PathMessage {
  readonly path: string;
  readonly message: string;
}

/** The readable form of a failed Ajv validation of `data`. */
export function explainErrors(errors: ErrorObject[], data: Json): PathMessage[] {
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
        out.push({ path: joinPath(at, e.params.missingProperty, false), message: 'required field is missing' });
        break;
      case 'additionalProperties':
        out.push({
          path: joinPath(at, e.params.additionalProperty, false),
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
          path: joinPath(at, String(e.params.j), true),
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

/** A short description of a value for messages: `string "x"`, `object`, `array (2 items)`, `nothing`. */
export function describeValue(value: Json): string {
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
    out = joinPath(out, seg, Array.isArray(cur));
    cur = cur == null ? undefined : cur[seg];
  }
  return out;
}
