import { FieldError, invalid } from './field-error';
import { joinPath } from './field-path';

/**
 * Map keys cdk8s cannot render, with why. Both are legal in Kubernetes (a label, an engine flag, a
 * node selector, an override); each is refused at synth, by name, instead of failing or vanishing:
 *
 * - `constructor`: cdk8s's resolver reads `value.constructor` to tell plain objects from class
 *   instances, so every synth of the object failed with "can't render non-simple object";
 * - `__proto__`: copying a map assigns it, which sets the copy's prototype instead of a key, so
 *   the entry silently disappeared from the output (a node selector written as `{}`).
 */
const UNRENDERABLE_KEYS: ReadonlyMap<string, string> = new Map([
  ['constructor', 'cdk8s\'s resolver reads an object\'s "constructor", so the object cannot be rendered'],
  ['__proto__', 'JavaScript copies it as the object\'s prototype, so cdk8s would drop it from the output'],
]);

/**
 * A field error for each map key below `value` that cdk8s cannot render, at its path from `at`,
 * and for each value that is not JSON: YAML's `!!set`, `!!omap`, `!!pairs`, `!!timestamp` and
 * `!!binary` tags make a Set, a Map, a Date or bytes, which cdk8s's resolver refuses to render.
 */
export function unrenderableKeyErrors(value: unknown, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const stack: Array<[unknown, string]> = [[value, at]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, joinPath(path, String(i), true)]));
    } else if (node !== null && typeof node === 'object' && !isPlainObject(node)) {
      errors.push(invalid(path || '(root)', `<${node.constructor?.name ?? 'object'}>`, `a YAML ${yamlTagOf(node)} value cannot be synthesized: write a plain mapping, list or string`));
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node)) {
        const here = joinPath(path, key, false);
        const why = UNRENDERABLE_KEYS.get(key);
        if (why !== undefined) errors.push(invalid(here, key, `the key ${JSON.stringify(key)} cannot be synthesized: ${why}; rename it`));
        stack.push([(node as Record<string, unknown>)[key], here]);
      }
    }
  }
  return errors;
}

/**
 * A mapping, whatever realm made it (by its tag, not its prototype: objects built in another
 * realm, such as a jest test's, have another `Object.prototype`).
 */
function isPlainObject(node: object): boolean {
  return Object.prototype.toString.call(node) === '[object Object]';
}

/** The tag that made a non-JSON value, as the user wrote it (by its class tag: no instanceof, which fails across realms). */
function yamlTagOf(node: object): string {
  switch (Object.prototype.toString.call(node)) {
    case '[object Set]':
      return '!!set';
    case '[object Map]':
      return '!!omap or !!pairs';
    case '[object Date]':
      return '!!timestamp';
    case '[object Uint8Array]':
      return '!!binary';
    default:
      return 'tagged';
  }
}
