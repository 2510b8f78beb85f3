/**
 * Go (RE2) regular expressions, as CRD `pattern`s are written, turned into ECMAScript ones.
 *
 * The API server compiles `pattern` with Go's regexp package; Ajv compiles it with JavaScript's
 * `RegExp(pattern, 'u')`. The two dialects share most syntax. Where they differ, this module
 * rewrites the Go form into an equivalent ECMAScript form, and reports as unsupported (with the
 * reason) what has no equivalent, so the caller can skip that one pattern instead of failing to
 * compile the whole schema:
 *
 * - inline flags `(?i)`, `(?m)`, `(?s)` (and `(?-i)` ...) apply in Go from that point to the end
 *   of the enclosing group; ECMAScript has only the scoped form `(?i:...)` (regexp modifiers,
 *   V8 12.5+, so Node 22+), so the flag group opens a modifier group that closes where the
 *   enclosing group does;
 * - `(?P<name>...)` named groups become `(?<name>...)`;
 * - `\A` and `\z` (start and end of text, whatever the flags) become lookarounds that match only
 *   at the very start or end;
 * - Go's ungreedy flag `U` has no ECMAScript equivalent: unsupported.
 *
 * Anything else that still does not compile (POSIX classes `[[:alpha:]]`, `\Q...\E`, ...) is
 * reported as unsupported with JavaScript's own error message.
 */

/** A Go pattern translated to ECMAScript, or the reason it cannot be. */
export type TranslatedPattern = { readonly pattern: string } | { readonly unsupported: string };

const FLAG_GROUP = /^\(\?([imsU-]+)([:)])/;

/** Translate one Go RE2 pattern into an ECMAScript pattern that compiles with the `u` flag. */
export function translateGoPattern(pattern: string): TranslatedPattern {
  if (compiles(pattern)) {
    return { pattern };
  }
  let out = '';
  // One frame per open group: how many modifier groups opened by inline flags it must close.
  const frames: number[] = [0];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && next === 'A') {
        out += '(?<![\\s\\S])';
      } else if (!inClass && next === 'z') {
        out += '(?![\\s\\S])';
      } else {
        out += c + next;
      }
      i++;
      continue;
    }
    if (inClass) {
      inClass = c !== ']';
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A ']' first in a class is a literal in Go.
      if (pattern[i + 1] === '^') {
        out += pattern[++i];
      }
      if (pattern[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(') {
      if (pattern.startsWith('(?P<', i)) {
        out += '(?<';
        i += 3;
        frames.push(0);
        continue;
      }
      const flags = FLAG_GROUP.exec(pattern.slice(i));
      if (flags) {
        if (flags[1].includes('U')) {
          return { unsupported: "Go's ungreedy flag (?U) has no ECMAScript equivalent" };
        }
        out += `(?${flags[1]}:`;
        i += flags[0].length - 1;
        if (flags[2] === ')') {
          // Inline form: the modifier group runs to the end of the enclosing group.
          frames[frames.length - 1]++;
        } else {
          frames.push(0);
        }
        continue;
      }
      frames.push(0);
      out += c;
      continue;
    }
    if (c === ')') {
      if (frames.length === 1) {
        return { unsupported: 'unbalanced parenthesis' };
      }
      out += ')'.repeat(frames.pop() ?? 0) + c;
      continue;
    }
    out += c;
  }
  out += ')'.repeat(frames.pop() ?? 0);
  const error = compileError(out);
  return error === undefined ? { pattern: out } : { unsupported: `not expressible as an ECMAScript regular expression: ${error}` };
}

function compiles(pattern: string): boolean {
  return compileError(pattern) === undefined;
}

function compileError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
