import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { FieldError, forbidden, invalid, notSupported, required } from './field-error';

/**
 * Converts a Kubernetes structural schema (a CRD's openAPIV3Schema) into a JSON Schema that Ajv
 * checks the way the API server would, except that unknown fields are errors: the API server
 * prunes them silently, which would hide a typo in a user's YAML.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key.startsWith('x-kubernetes-') || key === 'format' || key === 'description' || key === 'nullable') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]));
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      out[key] = typeof value === 'boolean' ? value : toJsonSchema(value);
    } else if (key === 'anyOf' || key === 'allOf' || key === 'oneOf') {
      out[key] = (value as unknown[]).map(toJsonSchema);
    } else {
      out[key] = value;
    }
  }
  if (s['x-kubernetes-int-or-string'] === true) {
    delete out.type;
    delete out.anyOf;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (out.type === 'object' && !preserve && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  if (s.nullable === true && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
  }
  return out;
}

/** A compiled checker of one structural schema, reporting Kubernetes-style field errors. */
export class StructuralSchemaValidator {
  private readonly validateFn: ValidateFunction;

  public constructor(schema: unknown) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    this.validateFn = ajv.compile(toJsonSchema(schema) as object);
  }

  /** Field errors of `value`, with paths rooted at `rootPath` (e.g. `spec`). */
  public validate(value: unknown, rootPath: string): FieldError[] {
    if (this.validateFn(value)) return [];
    return (this.validateFn.errors ?? []).filter(isReportable).map((e) => toFieldError(e, value, rootPath));
  }
}

/** Ajv also reports the failing branches of anyOf; the anyOf error itself is enough. */
function isReportable(e: ErrorObject): boolean {
  return !(e.schemaPath.includes('/anyOf/') && (e.keyword === 'type' || e.keyword === 'pattern'));
}

function toFieldError(e: ErrorObject, root: unknown, rootPath: string): FieldError {
  const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = rootPath;
  for (const seg of segments) path += /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`;
  const value = segments.reduce<any>((v, seg) => (v === undefined || v === null ? undefined : v[seg]), root);
  switch (e.keyword) {
    case 'required':
      return required(`${path}.${(e.params as any).missingProperty}`, 'a value is required');
    case 'additionalProperties':
      return forbidden(`${path}.${(e.params as any).additionalProperty}`, 'unknown field (not in the schema)');
    case 'enum':
      return notSupported(path, value, (e.params as any).allowedValues.map(String));
    case 'type':
      return invalid(path, value, `must be of type ${[(e.params as any).type].flat().join(' or ')}`);
    case 'anyOf':
      return invalid(path, value, 'must be an integer or a string');
    case 'pattern':
      return invalid(path, value, `must match the regular expression ${(e.params as any).pattern}`);
    case 'maxItems':
      return invalid(path, Array.isArray(value) ? value.length : value, `must have at most ${(e.params as any).limit} items`);
    case 'maxLength':
      return invalid(path, value, `must be no more than ${(e.params as any).limit} characters`);
    case 'minimum':
      return invalid(path, value, `must be greater than or equal to ${(e.params as any).limit}`);
    case 'maximum':
      return invalid(path, value, `must be less than or equal to ${(e.params as any).limit}`);
    default:
      return invalid(path, value, e.message ?? 'is invalid');
  }
}
