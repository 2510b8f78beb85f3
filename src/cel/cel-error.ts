/**
 * An error in a CEL expression (a DRA device selector, a selection rule, a CRD rule), located in its text: the 1-based line and column (columns count
 * characters — Unicode code points — as CEL does), the offset into the JavaScript string, and a
 * formatted message in CEL's style that quotes the line and points at the column:
 *
 * ```text
 * <input>:1:29: found no matching overload for 'compareTo' applied to 'kubernetes.Quantity.(string)'
 *  | device.capacity["x"].memory.compareTo("20Gi")
 *  | ............................^
 * ```
 */

/** One problem in a CEL expression. */
export interface CelError {
  /** What is wrong, without the position: `undeclared reference to 'gpu'`. */
  readonly message: string;
  /** 1-based line of the failing sub-expression. */
  readonly line: number;
  /** 1-based column (in characters) of the failing sub-expression. */
  readonly column: number;
  /** 0-based index of the failing sub-expression in the expression string. */
  readonly offset: number;
  /** `<input>:line:column: message`, then the line quoted with `^` under the column. */
  readonly formatted: string;
}

/** Lines longer than this are quoted as a window around the column. */
const QUOTE_WIDTH = 100;

/** An error at `offset` (clamped to the text) of `expression`. */
export function celError(expression: string, offset: number, message: string): CelError {
  const at = Math.max(0, Math.min(Math.trunc(offset) || 0, expression.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    const c = expression.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && expression.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = [...expression.slice(lineStart, at)].length + 1;
  const lineEnd = expression.slice(lineStart).search(/\r\n|\r|\n/);
  const text = lineEnd < 0 ? expression.slice(lineStart) : expression.slice(lineStart, lineStart + lineEnd);
  const clean = printable(message);
  return { message: clean, line, column, offset: at, formatted: `<input>:${line}:${column}: ${clean}\n${quote(text, column)}` };
}

/** ` | line` and ` | ...^`, the line cut to a window around the column when it is long. */
function quote(text: string, column: number): string {
  let chars = [...text];
  let col = column;
  if (chars.length > QUOTE_WIDTH) {
    const start = Math.max(0, Math.min(col - 1 - QUOTE_WIDTH / 2, chars.length - QUOTE_WIDTH));
    const window = chars.slice(start, start + QUOTE_WIDTH);
    const head = start > 0 ? ['…'] : [];
    const tail = start + QUOTE_WIDTH < chars.length ? ['…'] : [];
    chars = [...head, ...window, ...tail];
    col = col - start + head.length;
  }
  const shown = chars.map(visible);
  // Tabs stay tabs under the line so the caret lines up however the terminal expands them.
  const pad = shown.slice(0, col - 1).map((c) => (c === '\t' ? '\t' : '.')).join('');
  return ` | ${shown.join('')}\n | ${pad}^`;
}

/** A control character as its visible Unicode symbol (NUL as ␀), so the quote stays on one line and lines up. */
function visible(c: string): string {
  const code = c.codePointAt(0)!;
  if (code === 0x09) {
    return c;
  }
  if (code < 0x20) {
    return String.fromCodePoint(0x2400 + code);
  }
  return code === 0x7f ? '\u2421' : c;
}

/** A message with control characters escaped (a parse error may quote a NUL it found). */
function printable(message: string): string {
  // eslint-disable-next-line no-control-regex
  return message.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
