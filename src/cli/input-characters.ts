import { isUtf8 } from 'buffer';
import { YamlDocumentCounter } from './yaml-document-counter';

/**
 * What an input may hold: UTF-8 text of the characters YAML calls printable (YAML 1.2.2, 5.1:
 * tab, line feed, carriage return, U+0020–U+007E, U+0085, U+00A0 and above but for surrogates,
 * U+FFFE and U+FFFF). kubectl's parser refuses the rest as well; decoding would silently turn
 * invalid UTF-8 into U+FFFD, and the yaml package keeps a raw NUL in a value, so an input holding
 * either would otherwise synthesize something other than what its bytes say. A character meant in a
 * value is written escaped in a double-quoted string (`"\0"`, `"\x1b"`).
 */

/** Where in an input a character problem is: the document (zero-based) and the 1-based line and column. */
export interface CharacterProblem {
  readonly message: string;
  readonly index: number;
  readonly line: number;
  readonly col: number;
}

/** Characters that are not printable in YAML (surrogates cannot come out of decoded UTF-8). */
const NOT_PRINTABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]/;

/** The first line of `bytes` that is not UTF-8, with its document, or undefined when all of it is. */
export function invalidUtf8Problem(bytes: Buffer): CharacterProblem | undefined {
  if (isUtf8(bytes)) return undefined;
  // A line feed byte is never part of a multi-byte character, so lines can be checked one by one.
  let start = 0;
  let line = 1;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    const lineBytes = bytes.subarray(start, end < 0 ? bytes.length : end);
    if (!isUtf8(lineBytes)) {
      const before = bytes.subarray(0, start).toString('utf8');
      return {
        index: documentIndexAt(before),
        line,
        col: 1,
        message: 'not valid UTF-8 on this line: cdk8s-inference reads YAML as UTF-8, as kubectl does (convert the file, e.g. with iconv -t UTF-8)',
      };
    }
    if (end < 0) return undefined; // (isUtf8 of the whole disagreed with every line: cannot happen)
    start = end + 1;
    line++;
  }
}

/** The first character of `text` that YAML does not allow, with where it is, or undefined. */
export function unprintableCharacterProblem(text: string): CharacterProblem | undefined {
  const found = NOT_PRINTABLE.exec(text);
  if (!found) return undefined;
  const before = text.slice(0, found.index);
  const lineStart = before.lastIndexOf('\n') + 1;
  const code = found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return {
    index: documentIndexAt(before),
    line: countLineFeeds(before) + 1,
    col: found.index - lineStart + 1,
    message: `control character U+${code} is not allowed in YAML; if it is meant in a value, write it escaped in a double-quoted string ("\\u${code}")`,
  };
}

/** The zero-based document that text continuing `before` is in. */
function documentIndexAt(before: string): number {
  const documents = new YamlDocumentCounter();
  for (const line of before.split('\n')) documents.read(line);
  return documents.index;
}

function countLineFeeds(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
