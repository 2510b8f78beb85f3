import { parse } from 'yaml';
import { FieldError, invalid } from './field-error';

/**
 * Reads the YAML (or JSON) value of one of our annotations: refused above `maxBytes` before
 * parsing, aliases limited (no alias bombs), duplicate keys an error, and the first line of the
 * parser's message in the field error.
 */
export function parseAnnotationYaml(value: string, path: string, maxBytes: number): { doc: unknown; errors: FieldError[] } {
  const bytes = Buffer.byteLength(value);
  if (bytes > maxBytes) {
    return { doc: undefined, errors: [invalid(path, `${value.slice(0, 40)}…`, `is ${bytes} bytes, more than the ${maxBytes} allowed`)] };
  }
  try {
    return { doc: parse(value, { maxAliasCount: 16, uniqueKeys: true, prettyErrors: false }), errors: [] };
  } catch (e) {
    return { doc: undefined, errors: [invalid(path, value, `is not YAML or JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`)] };
  }
}
