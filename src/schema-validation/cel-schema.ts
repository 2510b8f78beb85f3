/**
 * The CEL view of a CRD structural schema: its `x-kubernetes-validations` rules, and what
 * evaluating them needs of the schema (cel-validation.ts evaluates them). Extracted once per
 * served CRD version when the file is converted, and cached on disk with the converted schema.
 */

/** A JSON (Schema) value as read from the upstream files. */
type Json = any;

/** One `x-kubernetes-validations` entry, as the CRD declares it. */
export interface CelRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly fieldPath?: string;
  readonly reason?: string;
  readonly optionalOldSelf?: boolean;
}

/**
 * The parts of a CRD structural schema that evaluating its CEL rules needs: where the rules are,
 * and, for every value a rule can see, how the API server turns it into a CEL value (types,
 * formats, int-or-string, property names vs map keys, embedded resources) and the defaults it
 * applies first. Subtrees that neither carry a rule nor are seen by one are left out.
 */
export interface CelSchema {
  'type'?: string;
  /** Only the formats that change the CEL type: byte, duration, date, date-time. */
  'format'?: string;
  'nullable'?: boolean;
  'default'?: Json;
  'properties'?: Record<string, CelSchema>;
  'additionalProperties'?: CelSchema;
  'items'?: CelSchema;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: CelRule[];
}

const CEL_TYPED_FORMATS = new Set(['byte', 'duration', 'date', 'date-time']);
const CEL_RULE_FIELDS = ['rule', 'message', 'messageExpression', 'fieldPath', 'reason', 'optionalOldSelf'] as const;

/**
 * The CEL view of a structural schema, or undefined when it has no `x-kubernetes-validations`.
 * Structural schemas may not carry rules or defaults inside allOf/anyOf/oneOf/not, so only
 * properties, additionalProperties and items are followed. `seen` is true below a rule: there
 * the whole subtree is kept, because the rule's `self` contains it.
 */
export function extractCelSchema(s: Json, seen = false): CelSchema | undefined {
  if (!s || typeof s !== 'object') {
    return undefined;
  }
  const rules: CelRule[] = (Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [])
    .filter((r: Json) => typeof r?.rule === 'string')
    .map((r: Json) => Object.fromEntries(CEL_RULE_FIELDS.filter((k) => r[k] !== undefined && r[k] !== '').map((k) => [k, r[k]])) as CelRule);
  const inside = seen || rules.length > 0;
  const out: CelSchema = {};
  let needed = inside;
  if (s.properties && typeof s.properties === 'object') {
    const properties: Record<string, CelSchema> = {};
    for (const [name, sub] of Object.entries(s.properties)) {
      const converted = extractCelSchema(sub, inside);
      if (converted) {
        properties[name] = converted;
        needed = true;
      }
    }
    if (Object.keys(properties).length > 0) {
      out.properties = properties;
    }
  }
  for (const key of ['additionalProperties', 'items'] as const) {
    const converted = s[key] && typeof s[key] === 'object' ? extractCelSchema(s[key], inside) : undefined;
    if (converted) {
      out[key] = converted;
      needed = true;
    }
  }
  if (!needed) {
    return undefined;
  }
  if (typeof s.type === 'string') {
    out.type = s.type;
  }
  if (typeof s.format === 'string' && CEL_TYPED_FORMATS.has(s.format)) {
    out.format = s.format;
  }
  if (s.default !== undefined) {
    out.default = s.default;
  }
  for (const flag of ['nullable', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource'] as const) {
    if (s[flag] === true) {
      out[flag] = true;
    }
  }
  if (rules.length > 0) {
    out['x-kubernetes-validations'] = rules;
  }
  return out;
}
