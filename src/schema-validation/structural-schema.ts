import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { convertStructural } from './schema-conversion';
import { FieldError, forbidden, invalid, notSupported, required } from '../core/field-error';
import { INTEGER_FORMATS, integerRangeOf } from '../core/integer-formats';
import { didYouMean } from '../core/suggest';

/**
 * The JSON Schema of one of our own structural schemas (the AI Runway spec schemas), as Ajv
 * checks it: the conversion of upstream schemas (schema-conversion.ts: unknown fields are errors,
 * where the API server would prune them and hide a typo in a user's YAML), with integer formats
 * range-checked as the Go types behind them and without list-map uniqueness (see
 * `ConvertContext`). A pattern it cannot translate is a bug in our schema, so it throws.
 */
export function toJsonSchema(schema: unknown): unknown {
  return convertStructural(schema, {
    integerFormats: true,
    listMapKeys: false,
    dropPattern: (pattern, reason) => {
      throw new Error(`structural schema: cannot check the pattern ${JSON.stringify(pattern)}: ${reason}`);
    },
  });
}

/**
 * The Ajv that compiles structural schemas: every error (allErrors), each carrying its schema
 * (verbose: an unknown field is compared with the known ones), and the integer formats. Its code
 * refers to those formats by module, so a validator it compiles can also be written out ahead of
 * time (scripts/precompile-validators.ts).
 */
export function structuralSchemaAjv(): Ajv {
  // Loaded here, not at the top: the validators the CLI and the constructs use are compiled ahead
  // of time, and loading Ajv cost each start about 40 ms.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ajv: typeof import('ajv') = require('ajv');
  const _ = ajv._;
  return new ajv.default({
    allErrors: true,
    strict: false,
    verbose: true,
    formats: { ...INTEGER_FORMATS },
    code: { source: true, formats: _`require("../integer-formats").INTEGER_FORMATS` },
  });
}

/**
 * What the checker uses of an Ajv validator: a call, then its `errors`. Ajv's `ValidateFunction`
 * has it, and so has the function of a standalone module (generated/), which carries no `schema`.
 */
type CompiledSchema = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** A compiled checker of one structural schema, reporting Kubernetes-style field errors. */
export class StructuralSchemaValidator {
  /** Compiles `schema` (a structural schema, as a CRD holds it). */
  public static compile(schema: unknown): StructuralSchemaValidator {
    return new StructuralSchemaValidator(structuralSchemaAjv().compile(toJsonSchema(schema) as object));
  }

  /** `validateFn`: compiled by `structuralSchemaAjv()` from `toJsonSchema` of a schema, now or ahead of time (generated/). */
  public constructor(private readonly validateFn: CompiledSchema) {}

  /** Field errors of `value`, with paths rooted at `rootPath` (e.g. `spec`). */
  public validate(value: unknown, rootPath: string): FieldError[] {
    if (this.validateFn(value)) return [];
    const errors = this.validateFn.errors ?? [];
    return errors.filter((e) => isReportable(e, errors)).map((e) => toFieldError(e, value, rootPath));
  }
}

/**
 * Ajv also reports the failing branches of anyOf; the anyOf error itself is enough. A format
 * range error is left out when the field already has another error (`-3000000000` for a count
 * with `minimum: 0` is reported once, as below the minimum).
 */
function isReportable(e: ErrorObject, all: readonly ErrorObject[]): boolean {
  if (e.schemaPath.includes('/anyOf/') && (e.keyword === 'type' || e.keyword === 'pattern')) return false;
  if (e.keyword === 'format') return !all.some((o) => o !== e && o.keyword !== 'format' && o.instancePath === e.instancePath);
  return true;
}

function toFieldError(e: ErrorObject, root: unknown, rootPath: string): FieldError {
  const segments = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = rootPath;
  for (const seg of segments) path += /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`;
  const value = segments.reduce<any>((v, seg) => (v === undefined || v === null ? undefined : v[seg]), root);
  switch (e.keyword) {
    case 'required':
      return required(`${path}.${(e.params as any).missingProperty}`, 'a value is required');
    case 'additionalProperties': {
      const field = (e.params as any).additionalProperty;
      const known = Object.keys((e.parentSchema as any)?.properties ?? {});
      return forbidden(`${path}.${field}`, `unknown field (not in the schema)${didYouMean(field, known)}`);
    }
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
    case 'format': {
      const format = (e.params as any).format as string;
      const range = integerRangeOf(format);
      if (range === undefined) return invalid(path, value, `must match format ${JSON.stringify(format)}`);
      return invalid(path, value, `must be between ${range.minText} and ${range.maxText}, inclusive (format ${format})`);
    }
    default:
      return invalid(path, value, e.message ?? 'is invalid');
  }
}
