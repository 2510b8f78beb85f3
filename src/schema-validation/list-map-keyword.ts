/**
 * The Ajv keyword for `x-kubernetes-list-type: map`: the items of such a list are unique by the
 * values of their `x-kubernetes-list-map-keys`, as the API server requires.
 *
 * It is a code-generating keyword (not a `validate` function) so that a compiled validator can be
 * written out as standalone code and loaded again without Ajv (compiled-validators.ts): the
 * generated code calls `duplicateListMapEntries` through `require(LIST_MAP_KEYWORD_MODULE)`.
 */
import { _, Code, KeywordDefinition } from 'ajv';
import { LIST_MAP_KEYWORD } from './schema-conversion';

/** What standalone code requires to reach this module (compiled-validators.ts resolves it). */
export const LIST_MAP_KEYWORD_MODULE = './list-map-keyword';

/** A JSON value being validated. */
type Json = any;

/** An item that repeats the keys of an earlier item of the list. */
export interface DuplicateListMapEntry {
  /** Index of the repeating item, as a string (a JSON Pointer segment). */
  readonly index: string;
  readonly message: string;
}

/**
 * The items of `items` whose values at `keys` repeat those of an earlier item (a missing key
 * counts as null). Items that are not objects are left to the item schema.
 */
export function duplicateListMapEntries(keys: readonly string[], items: readonly Json[]): DuplicateListMapEntry[] {
  const seen = new Set<string>();
  const out: DuplicateListMapEntry[] = [];
  items.forEach((item, index) => {
    if (!item || typeof item !== 'object') {
      return;
    }
    const id = JSON.stringify(keys.map((k) => item[k] ?? null));
    if (seen.has(id)) {
      const value = Object.fromEntries(keys.map((k) => [k, item[k]]));
      out.push({ index: String(index), message: `duplicate entry for list-map key ${JSON.stringify(value)}` });
    }
    seen.add(id);
  });
  return out;
}

/** The keyword definition: one error per repeating item, at that item's path. */
export const listMapKeyword: KeywordDefinition = {
  keyword: LIST_MAP_KEYWORD,
  type: 'array',
  schemaType: 'array',
  error: {
    message: ({ params }) => _`${params.message}`,
    params: ({ params }) => _`{keys: ${params.keys}}`,
  },
  code(cxt) {
    const { gen, data } = cxt;
    // An array-typed keyword's value is always code that refers to the schema's array.
    const keys = cxt.schemaValue as Code;
    const find = gen.scopeValue('func', {
      ref: duplicateListMapEntries,
      code: _`require(${LIST_MAP_KEYWORD_MODULE}).duplicateListMapEntries`,
    });
    gen.forOf('dup', _`${find}(${keys}, ${data})`, (dup) => {
      const index = gen.const('index', _`${dup}.index`);
      cxt.error(true, { keys, message: _`${dup}.message` }, { instancePath: index });
    });
  },
};
