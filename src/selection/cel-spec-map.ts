import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { isJsonObject } from '../core/json-object';
import { parseQuantity, Quantity } from '../core/quantity';

/**
 * The `spec` variable that provider selection rules see.
 *
 * AI Runway's reconciler marshals the typed Go `ModelDeploymentSpec` to JSON and parses it back
 * into plain maps, so what a CEL rule can `has()` is decided by Go's `encoding/json`:
 *
 * - `omitempty` scalars disappear at their zero value (`gpu.count: 0`, `replicas: 0`, `false`,
 *   `""`), as do empty maps and lists and nil pointers;
 * - pointer fields keep any value they hold (`engine.contextLength: 0`, `gateway.enabled: false`,
 *   a volume's `storageClassName: ""`, an env var's `optional: false`);
 * - struct fields held by value are always written, even with `omitempty` (`spec.engine` is
 *   always at least `{}`, `spec.model` always present, an env `resourceFieldRef.divisor` is `"0"`);
 * - fields without `omitempty` are written at their zero value (`env[].name: ""`);
 * - quantities are written as strings in apimachinery's form (`1024Mi` becomes `1Gi`);
 * - fields Go does not know are dropped; `provider.overrides` (raw JSON) is kept as written.
 *
 * Each field's Go shape is described once below (from the AI Runway and core/v1 API types), and
 * the encoder follows those rules. A value of the wrong JSON type is a conversion error, as it
 * would be when Go decodes the object.
 */

/** A spec value Go could not decode (wrong JSON type, unparsable quantity). */
export class CelSpecConversionError extends Error {
  public constructor(public readonly path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'CelSpecConversionError';
  }
}

/** The JSON-like values of the CEL input map. */
export type CelSpecValue = string | number | boolean | null | CelSpecValue[] | { [key: string]: CelSpecValue };
export type CelSpecMap = { [key: string]: CelSpecValue };

// ---------------------------------------------------------------------------------------------
// Go shapes

type Shape =
  | { readonly kind: 'string' }
  | { readonly kind: 'int' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'quantity' }
  | { readonly kind: 'stringMap' }
  | { readonly kind: 'raw' }
  | { readonly kind: 'list'; readonly items: Shape }
  | { readonly kind: 'struct'; readonly fields: Readonly<Record<string, Field>> }
  | { readonly kind: 'pointer'; readonly to: Shape };

interface Field {
  readonly shape: Shape;
  /** The json tag carries `omitempty`. */
  readonly omitEmpty: boolean;
}

const STRING: Shape = { kind: 'string' };
const INT: Shape = { kind: 'int' };
const BOOL: Shape = { kind: 'bool' };
const QUANTITY: Shape = { kind: 'quantity' };
const STRING_MAP: Shape = { kind: 'stringMap' };

const ptr = (to: Shape): Shape => ({ kind: 'pointer', to });
const list = (items: Shape): Shape => ({ kind: 'list', items });
const struct = (fields: Record<string, Field>): Shape => ({ kind: 'struct', fields });
/** `json:"x,omitempty"` */
const opt = (shape: Shape): Field => ({ shape, omitEmpty: true });
/** `json:"x"` */
const req = (shape: Shape): Field => ({ shape, omitEmpty: false });

const GPU = struct({ count: opt(INT), type: opt(STRING) });

const STORAGE_VOLUME = struct({
  name: req(STRING),
  claimName: opt(STRING),
  mountPath: opt(STRING),
  purpose: opt(STRING),
  readOnly: opt(BOOL),
  size: opt(ptr(QUANTITY)),
  storageClassName: opt(ptr(STRING)),
  accessMode: opt(STRING),
});

const COMPONENT_SCALING = struct({ replicas: opt(INT), gpu: opt(ptr(GPU)), memory: opt(STRING) });

// core/v1 EnvVar and Toleration (k8s.io/api v0.35).
const KEY_SELECTOR = struct({ name: opt(STRING), key: req(STRING), optional: opt(ptr(BOOL)) });
const ENV_VAR_SOURCE = struct({
  fieldRef: opt(ptr(struct({ apiVersion: opt(STRING), fieldPath: req(STRING) }))),
  resourceFieldRef: opt(ptr(struct({ containerName: opt(STRING), resource: req(STRING), divisor: opt(QUANTITY) }))),
  configMapKeyRef: opt(ptr(KEY_SELECTOR)),
  secretKeyRef: opt(ptr(KEY_SELECTOR)),
  fileKeyRef: opt(ptr(struct({ volumeName: req(STRING), path: req(STRING), key: req(STRING), optional: opt(ptr(BOOL)) }))),
});
const ENV_VAR = struct({ name: req(STRING), value: opt(STRING), valueFrom: opt(ptr(ENV_VAR_SOURCE)) });
const TOLERATION = struct({
  key: opt(STRING),
  operator: opt(STRING),
  value: opt(STRING),
  effect: opt(STRING),
  tolerationSeconds: opt(ptr(INT)),
});

/** AI Runway `ModelDeploymentSpec` (controller/api/v1alpha1). */
const MODEL_DEPLOYMENT_SPEC = struct({
  model: req(struct({
    id: opt(STRING),
    servedName: opt(STRING),
    source: opt(STRING),
    storage: opt(ptr(struct({ volumes: opt(list(STORAGE_VOLUME)) }))),
  })),
  provider: opt(ptr(struct({ name: opt(STRING), overrides: opt(ptr({ kind: 'raw' })) }))),
  // A struct held by value: `omitempty` never drops it.
  engine: opt(struct({
    type: opt(STRING),
    image: opt(STRING),
    contextLength: opt(ptr(INT)),
    trustRemoteCode: opt(BOOL),
    enablePrefixCaching: opt(BOOL),
    enforceEager: opt(BOOL),
    args: opt(STRING_MAP),
    extraArgs: opt(list(STRING)),
  })),
  serving: opt(ptr(struct({ mode: opt(STRING) }))),
  scaling: opt(ptr(struct({ replicas: opt(INT), prefill: opt(ptr(COMPONENT_SCALING)), decode: opt(ptr(COMPONENT_SCALING)) }))),
  resources: opt(ptr(struct({ gpu: opt(ptr(GPU)), memory: opt(STRING), cpu: opt(STRING) }))),
  image: opt(STRING),
  env: opt(list(ENV_VAR)),
  podTemplate: opt(ptr(struct({ metadata: opt(ptr(struct({ labels: opt(STRING_MAP), annotations: opt(STRING_MAP) }))) }))),
  secrets: opt(ptr(struct({ huggingFaceToken: opt(STRING) }))),
  gateway: opt(ptr(struct({ enabled: opt(ptr(BOOL)), modelName: opt(STRING), httpRouteRef: opt(STRING) }))),
  nodeSelector: opt(STRING_MAP),
  tolerations: opt(list(TOLERATION)),
});

// ---------------------------------------------------------------------------------------------
// Encoder

/** `undefined` = the field is left out of the JSON object. */
type Encoded = CelSpecValue | undefined;

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

function mismatch(path: string, expected: string, value: unknown): CelSpecConversionError {
  return new CelSpecConversionError(path, `cannot decode ${typeName(value)} as ${expected}`);
}

/** Whether Go's `omitempty` drops this already-encoded value of `shape`. */
function isEmpty(shape: Shape, encoded: Encoded): boolean {
  switch (shape.kind) {
    case 'string': return encoded === '';
    case 'int': return encoded === 0;
    case 'bool': return encoded === false;
    case 'stringMap': return Object.keys(encoded as object).length === 0;
    case 'list': return (encoded as CelSpecValue[]).length === 0;
    case 'pointer': return encoded === undefined;
    // Structs (and resource.Quantity, a struct) are never "empty" to encoding/json.
    case 'struct':
    case 'quantity':
    case 'raw':
      return false;
  }
}

/**
 * Encodes `value` (the decoded JSON of one field) as Go writes it back. Absent input yields the
 * Go zero value for non-pointer shapes, `undefined` for pointers.
 */
function encode(shape: Shape, value: unknown, path: string): Encoded {
  switch (shape.kind) {
    case 'string':
      if (isAbsent(value)) return '';
      if (typeof value !== 'string') throw mismatch(path, 'string', value);
      return value;
    case 'int':
      if (isAbsent(value)) return 0;
      if (typeof value !== 'number' || !Number.isInteger(value)) throw mismatch(path, 'integer', value);
      return value;
    case 'bool':
      if (isAbsent(value)) return false;
      if (typeof value !== 'boolean') throw mismatch(path, 'boolean', value);
      return value;
    case 'quantity':
      return isAbsent(value) ? '0' : goQuantityString(value, path);
    case 'stringMap': {
      if (isAbsent(value)) return {};
      if (!isJsonObject(value)) throw mismatch(path, 'map of strings', value);
      const out: Record<string, CelSpecValue> = {};
      for (const [k, v] of Object.entries(value)) {
        if (typeof v !== 'string') throw mismatch(`${path}.${k}`, 'string', v);
        out[k] = v;
      }
      return out;
    }
    case 'raw':
      // RawExtension re-emits its bytes verbatim; parsing them back gives the same JSON value.
      return jsonClone(value, path);
    case 'list': {
      if (isAbsent(value)) return [];
      if (!Array.isArray(value)) throw mismatch(path, 'list', value);
      return value.map((item, i) => {
        const encoded = encode(shape.items, item, `${path}[${i}]`);
        // A nil pointer element is written as null; every other element is written in full.
        return encoded === undefined ? null : encoded;
      });
    }
    case 'pointer':
      return isAbsent(value) ? undefined : encode(shape.to, value, path);
    case 'struct': {
      if (isAbsent(value)) value = {};
      if (!isJsonObject(value)) throw mismatch(path, 'object', value);
      const out: Record<string, CelSpecValue> = {};
      for (const [name, field] of Object.entries(shape.fields)) {
        const encoded = encode(field.shape, value[name], `${path}.${name}`);
        if (field.omitEmpty && isEmpty(field.shape, encoded)) continue;
        // A nil pointer without omitempty would be `null`; no such field exists in these types.
        out[name] = encoded === undefined ? null : encoded;
      }
      return out;
    }
  }
}

function jsonClone(value: unknown, path: string): CelSpecValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw mismatch(path, 'JSON number', value);
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => jsonClone(v, `${path}[${i}]`));
  if (isJsonObject(value)) {
    const out: Record<string, CelSpecValue> = {};
    for (const [k, v] of Object.entries(value)) {
      // JSON has no undefined: such keys are not part of the document.
      if (v !== undefined) out[k] = jsonClone(v, `${path}.${k}`);
    }
    return out;
  }
  throw mismatch(path, 'JSON value', value);
}

/**
 * The CEL input map for a (defaulted, stored) ModelDeployment spec, as AI Runway builds it for
 * provider selection: Go `omitempty` serialisation, then — when `resolvedEngine` is given and
 * `engine.type` is missing — the resolved engine written into `engine.type`. The spec object is
 * not modified.
 *
 * @throws CelSpecConversionError when a value could not have been decoded by Go
 */
export function celSpecMap(spec: ModelDeploymentSpec, resolvedEngine?: string): CelSpecMap {
  const map = encode(MODEL_DEPLOYMENT_SPEC, spec, 'spec') as CelSpecMap;
  if (resolvedEngine) {
    const engine = map.engine as Record<string, CelSpecValue>;
    if (typeof engine.type !== 'string' || engine.type === '') engine.type = resolvedEngine;
  }
  return map;
}

// ---------------------------------------------------------------------------------------------
// resource.Quantity JSON

const DECIMAL_SI_SUFFIX: ReadonlyMap<number, string> = new Map([
  [-9, 'n'], [-6, 'u'], [-3, 'm'], [0, ''], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E'],
]);
const BINARY_SI_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const BINARY_EXPONENT: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A quantity as apimachinery's `Quantity.MarshalJSON` writes it after `ParseQuantity`: the
 * original text when the parser judged it canonical (`100Gi`, `500m`, also `+1` or `1.500`,
 * which it keeps verbatim), otherwise the canonical form (`1024Mi` → `1Gi`, `1000` → `1k`,
 * `1.5` → `1500m`). JSON numbers (int-or-string fields) are read from their decimal text.
 *
 * @throws CelSpecConversionError when the text is not a quantity
 */
export function goQuantityString(input: unknown, path = 'quantity'): string {
  let text: string;
  if (typeof input === 'string') text = input;
  else if (typeof input === 'number' && Number.isFinite(input)) text = Number.isInteger(input) ? BigInt(input).toString() : String(input);
  else throw mismatch(path, 'quantity', input);

  if (text === '0') return text;
  const q = parseQuantity(text);
  if (!q) {
    throw new CelSpecConversionError(path, `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (got ${JSON.stringify(text)})`);
  }
  if (keptVerbatim(text)) return text;
  return canonicalQuantity(q);
}

/**
 * ParseQuantity's fast path (values that fit an int64 at nano scale) keeps the input string
 * when it already looks canonical, and MarshalJSON then writes that string unchanged.
 */
function keptVerbatim(text: string): boolean {
  let pos = 0;
  if (text[0] === '+' || text[0] === '-') pos++;
  while (text[pos] === '0') pos++;
  if (pos >= text.length) return false; // all zeros: canonicalised to "0"
  const numStart = pos;
  while (pos < text.length && text[pos] >= '0' && text[pos] <= '9') pos++;
  const num = pos === numStart ? '0' : text.slice(numStart, pos);
  let denom = '';
  if (text[pos] === '.') {
    const denomStart = ++pos;
    while (pos < text.length && text[pos] >= '0' && text[pos] <= '9') pos++;
    denom = text.slice(denomStart, pos);
  }
  const suffix = text.slice(pos);
  const shifted = num + denom;

  const binary = BINARY_EXPONENT[suffix];
  if (binary !== undefined) {
    if (denom.length !== 0) return false;
    const precision = 15 - num.length - Math.trunc((binary * 3) / 10) - 1;
    if (precision < 0) return false;
    const value = BigInt(shifted);
    if (value * 2n ** BigInt(binary) > INT64_MAX) return false;
    // Go keeps the text unless the digits are a multiple of 8 (then a larger suffix may fit).
    return value % 8n !== 0n;
  }

  let exponent: number;
  const decimal = [...DECIMAL_SI_SUFFIX].find(([, s]) => s === suffix);
  if (decimal) exponent = decimal[0];
  else if (/^[eE][+-]?[0-9]+$/.test(suffix)) exponent = Number(suffix.slice(1));
  else return false;
  if (18 - shifted.length < 0) return false;
  const scale = exponent - denom.length;
  if (scale < -9) return false;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
}

/** `Quantity.CanonicalizeBytes`. */
function canonicalQuantity(q: Quantity): string {
  if (q.sign === 0) return '0';
  const sign = q.sign < 0 ? '-' : '';
  let format = q.format;
  if (format === 'BinarySI') {
    const belowKi = q.exponent >= 0
      ? q.mantissa * 10n ** BigInt(q.exponent) < 1024n
      : q.mantissa < 1024n * 10n ** BigInt(-q.exponent);
    // Fractions cannot be written with binary suffixes without rounding.
    if (belowKi || q.exponent < 0) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let value = q.mantissa * 10n ** BigInt(q.exponent);
    let times = 0;
    while (value >= 1024n && value % 1024n === 0n) {
      value /= 1024n;
      times++;
    }
    return `${sign}${value}${BINARY_SI_SUFFIX[times] ?? ''}`;
  }
  // The mantissa has no trailing zeros; move the exponent down to a multiple of three.
  let mantissa = q.mantissa;
  let exponent = q.exponent;
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  let suffix: string;
  if (format === 'DecimalExponent') suffix = exponent === 0 ? '' : `e${exponent}`;
  // apimachinery writes no suffix when DecimalSI has none for the exponent (beyond E).
  else suffix = DECIMAL_SI_SUFFIX.get(exponent) ?? '';
  return `${sign}${mantissa}${suffix}`;
}
