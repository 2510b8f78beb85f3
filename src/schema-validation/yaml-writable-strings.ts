/**
 * Strings that YAML output cannot carry as they are. The yaml package — cdk8s's writer, and the
 * CLI's for strings its own emitter leaves to it — escapes C0 control characters but writes DEL,
 * the C1 controls and U+FFFE/U+FFFF unescaped, which YAML does not allow and kubectl's parser
 * refuses ("control characters are not allowed"); a lone surrogate has no UTF-8 encoding and is
 * written as U+FFFD. Either way the manifest would not apply, or not as synthesized. (NEL, U+0085,
 * is allowed.)
 */
import { joinPath, Report } from '../core/field-path';

type Json = any;

/** A character the writers would leave unescaped and YAML forbids, or a lone surrogate. */
const UNWRITABLE = /[\x7f-\x84\x86-\x9f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * In an object's JSON text, what may show such a string (every one does; a false hint only costs
 * the walk): the raw characters, or a surrogate escape, which JSON.stringify writes for lone ones.
 */
const UNWRITABLE_HINT = /[\x7f-\x84\x86-\x9f\ufffe\uffff]|\\ud[89a-f]/i;

/**
 * Reports every key and string value of `value` holding such a character. `json`, the object's
 * JSON text when already made, lets an object without any skip the walk.
 */
export function checkYamlWritableStrings(value: Json, at: string, report: Report, json?: string): void {
  if (json !== undefined && !UNWRITABLE_HINT.test(json)) return;
  const stack: Array<[Json, string]> = [[value, at]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      const problem = unwritable(node);
      if (problem) report(path, `value ${problem}`);
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, joinPath(path, String(i), true)]));
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        const keyPath = joinPath(path, k, false);
        const problem = unwritable(k);
        if (problem) report(keyPath, `key ${problem}`);
        stack.push([v, keyPath]);
      }
    }
  }
}

function unwritable(s: string): string | undefined {
  const found = UNWRITABLE.exec(s);
  if (!found) return undefined;
  const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  const at = `at character ${found.index + 1}`;
  return /[\ud800-\udfff]/.test(found[0])
    ? `holds a lone surrogate (${code}) ${at}, which has no UTF-8 encoding: the YAML output would hold U+FFFD instead; remove it`
    : `holds ${code} ${at}, which YAML allows only escaped and cdk8s's YAML writer does not escape: kubectl would refuse the manifest; remove it`;
}
