/**
 * Parsing CEL, with the limits that keep hostile input from crashing or hanging the build, for
 * every caller (DRA device selectors, selection rules, CRD rules): the text must be a non-blank
 * string no longer than the caller's limit (Kubernetes' 10 KiB for `DeviceSelector.cel.expression`;
 * cel-go's default of 100,000 code points for the others, which AI Runway and the API server
 * parse with), brackets may nest at most 100 levels (the parser is recursive descent and slows
 * down steeply on deep unclosed nesting) and the parsed expression at most 250 levels (cel-go's
 * default recursion limit; the checker and the evaluator recurse over it). Each limit is
 * reported as an error at the place it is exceeded, never thrown.
 *
 * `cel.bind(name, value, expr)`, which Kubernetes enables for device selectors and @bufbuild/cel
 * does not expand, is rewritten, when the caller asks, into the comprehension it stands for:
 * `name` is bound to `value` while `expr` is evaluated.
 */
import { CelExpr, CelPositions, childrenOf, positionOf } from './ast';
import { CelError, celError } from './cel-error';
import { celModules } from './kubernetes-libraries';

/** How long an expression may be, and who says so (for the message). */
export interface CelLengthLimit {
  readonly limit: number;
  readonly unit: 'bytes' | 'code points';
  /** Completes "…; <by> allows at most <limit>": `Kubernetes`. */
  readonly by: string;
  /** Shown after the limit: `(10 Ki)`. */
  readonly note?: string;
}

/** Kubernetes' limit on `DeviceSelector.cel.expression` of `resource.k8s.io/v1`, in UTF-8 bytes. */
export const DEVICE_SELECTOR_LENGTH: CelLengthLimit = { limit: 10 * 1024, unit: 'bytes', by: 'Kubernetes', note: '(10 Ki)' };
/** cel-go's default expression size limit (`ParserExpressionSizeLimit`), in code points. */
export const CEL_GO_LENGTH: CelLengthLimit = { limit: 100_000, unit: 'code points', by: 'CEL' };
/** How deep brackets may nest. */
export const CEL_MAX_BRACKET_NESTING = 100;
/** How deep the parsed expression may be. */
export const CEL_MAX_DEPTH = 250;

/** What a caller's CEL dialect allows. */
export interface CelParseOptions {
  readonly length: CelLengthLimit;
  /** Whether `cel.bind()` is the macro of cel-go's bindings extension. */
  readonly bind: boolean;
}

/** A parsed expression: its text and where each node starts in it. */
export interface ParsedCel {
  readonly expression: string;
  readonly expr: CelExpr;
  readonly positions: CelPositions;
}

/** The parsed expression, or the error that stops it. */
export type CelParse =
  | { readonly parsed: ParsedCel; readonly error?: undefined }
  | { readonly parsed?: undefined; readonly error: CelError };

/** Parses an expression within the limits; never throws. */
export function parseCel(expression: string, options: CelParseOptions): CelParse {
  if (expression.trim() === '') {
    return fail(expression, 0, 'the expression is empty');
  }
  const { limit, unit, by, note } = options.length;
  const length = unit === 'bytes' ? Buffer.byteLength(expression, 'utf8') : [...expression].length;
  if (length > limit) {
    const at = offsetOfUnit(expression, unit, limit);
    return fail(expression, at, `the expression is ${length} ${unit} long; ${by} allows at most ${limit}${note ? ` ${note}` : ''}`);
  }
  const scan = scanBrackets(expression);
  if (scan.tooDeep !== undefined) {
    return fail(expression, scan.tooDeep, `brackets nest more than ${CEL_MAX_BRACKET_NESTING} levels deep`);
  }
  let parsed: ReturnType<ReturnType<typeof celModules>['cel']['parse']>;
  try {
    // @bufbuild/cel rejects a `//` comment that ends the input; CEL allows it, and a new line
    // at the end changes nothing else (positions beyond the text are clamped to its end).
    parsed = celModules().cel.parse(`${expression}\n`);
  } catch (e) {
    const err = e as { rawMessage?: unknown; location?: { start?: { offset?: unknown } }; message?: unknown };
    if (e instanceof RangeError) {
      return fail(expression, 0, 'the expression nests too deeply to parse');
    }
    const offset = typeof err?.location?.start?.offset === 'number' ? err.location.start.offset : 0;
    if (scan.unterminated !== undefined && scan.unterminated >= offset) {
      // The parser gives up before the literal and says so in other words.
      return fail(expression, scan.unterminated, 'syntax error: unterminated string literal');
    }
    const message = typeof err?.rawMessage === 'string' ? err.rawMessage : String(err?.message ?? e);
    return fail(expression, offset, `syntax error: ${message}`);
  }
  const positions = parsed.sourceInfo?.positions ?? {};
  const deep = tooDeepNode(parsed.expr);
  if (deep) {
    return fail(expression, skipBlanks(expression, positionOf(positions, deep)), `the expression is nested more than ${CEL_MAX_DEPTH} levels deep`);
  }
  const result: ParsedCel = { expression, expr: parsed.expr, positions };
  if (!options.bind) {
    return { parsed: result };
  }
  const ids = { next: maxId(parsed.expr) + 1n };
  const bindError = expandBinds(result, parsed.expr, ids);
  return bindError ? { error: bindError } : { parsed: result };
}

/**
 * The offset of the first character at or after `offset` that is not blank or in a comment: the
 * parser records an operator's position with the blanks before it.
 */
export function skipBlanks(text: string, offset: number): number {
  const blank = /\s+|\/\/[^\r\n]*/y;
  let at = offset;
  for (blank.lastIndex = at; blank.test(text); blank.lastIndex = at) {
    at = blank.lastIndex;
  }
  return at;
}

function fail(expression: string, offset: number, message: string): CelParse {
  return { error: celError(expression, offset, message) };
}

/** The string index where the text passes `limit` UTF-8 bytes or code points. */
function offsetOfUnit(text: string, unit: CelLengthLimit['unit'], limit: number): number {
  let length = 0;
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    length += unit === 'code points' ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (length > limit) {
      return i;
    }
    i += ch.length;
  }
  return text.length;
}

/**
 * Scans the text outside string literals (quoted, triple-quoted, raw) and `//` comments: the
 * offset of the first bracket that nests deeper than the limit, and of a string literal that is
 * never closed (the scan stops there).
 */
function scanBrackets(text: string): { tooDeep?: number; unterminated?: number } {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.slice(i).search(/[\r\n]/);
      if (end < 0) break;
      i += end;
    } else if (c === '"' || c === "'") {
      const prefix = text.slice(Math.max(0, i - 2), i);
      const end = stringEnd(text, i, /(^|[^A-Za-z0-9_])[rR]$|(^|[^A-Za-z0-9_])([bB][rR]|[rR][bB])$/.test(prefix));
      if (end === undefined) {
        return { unterminated: i };
      }
      i = end;
      continue;
    } else if (c === '(' || c === '[' || c === '{') {
      if (++depth > CEL_MAX_BRACKET_NESTING) {
        return { tooDeep: i };
      }
    } else if (c === ')' || c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
    }
    i++;
  }
  return {};
}

/** The index after the string literal that opens at `start`; undefined when it is not closed. */
function stringEnd(text: string, start: number, raw: boolean): number | undefined {
  const q = text[start];
  const triple = text.startsWith(q.repeat(3), start);
  let i = start + (triple ? 3 : 1);
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && !raw) {
      i += 2;
    } else if (triple ? text.startsWith(q.repeat(3), i) : c === q) {
      return i + (triple ? 3 : 1);
    } else if (!triple && (c === '\n' || c === '\r')) {
      return undefined;
    } else {
      i++;
    }
  }
  return undefined;
}

/** The largest node id in the tree. */
function maxId(root: CelExpr): bigint {
  let max = 0n;
  const stack = [root];
  while (stack.length > 0) {
    const expr = stack.pop()!;
    max = expr.id > max ? expr.id : max;
    stack.push(...childrenOf(expr));
  }
  return max;
}

/**
 * The first node, in source order, deeper than the limit (iteratively: the tree may be far deeper
 * than the stack allows).
 */
function tooDeepNode(root: CelExpr): CelExpr | undefined {
  const stack: Array<[CelExpr, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [expr, depth] = stack.pop()!;
    if (depth > CEL_MAX_DEPTH) {
      return expr;
    }
    for (const child of childrenOf(expr).reverse()) {
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/**
 * Rewrites every `cel.bind(name, value, expr)` in place into `[].all`-style comprehension CEL's
 * own macro produces: no iterations, the accumulator `name` initialized to `value`, result `expr`.
 */
function expandBinds(parsed: ParsedCel, expr: CelExpr, ids: { next: bigint }): CelError | undefined {
  for (const child of childrenOf(expr)) {
    const error = expandBinds(parsed, child, ids);
    if (error) return error;
  }
  const kind = expr.exprKind;
  if (kind.case !== 'callExpr' || kind.value.function !== 'bind' || kind.value.target?.exprKind.case !== 'identExpr' || kind.value.target.exprKind.value.name !== 'cel') {
    return undefined;
  }
  const at = positionOf(parsed.positions, expr);
  const [name, init, body] = kind.value.args;
  if (kind.value.args.length !== 3) {
    return celError(parsed.expression, at, `cel.bind() takes 3 arguments (a variable name, its value, an expression), not ${kind.value.args.length}`);
  }
  if (name.exprKind.case !== 'identExpr') {
    return celError(parsed.expression, positionOf(parsed.positions, name), 'the first argument of cel.bind() must be a simple variable name');
  }
  // New nodes get ids of their own, placed where the cel.bind call is.
  const node = (exprKind: CelExpr['exprKind']): CelExpr => {
    const id = ids.next++;
    parsed.positions[String(id)] = at;
    return { $typeName: 'cel.expr.Expr', id, exprKind } as CelExpr;
  };
  const constant = (value: boolean): CelExpr['exprKind'] => ({ case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'boolValue', value } } } as CelExpr['exprKind']);
  expr.exprKind = {
    case: 'comprehensionExpr',
    value: {
      $typeName: 'cel.expr.Expr.Comprehension',
      iterVar: '#unused',
      iterVar2: '',
      iterRange: node({ case: 'listExpr', value: { $typeName: 'cel.expr.Expr.CreateList', elements: [], optionalIndices: [] } } as CelExpr['exprKind']),
      accuVar: name.exprKind.value.name,
      accuInit: init,
      loopCondition: node(constant(false)),
      loopStep: node({ case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name: name.exprKind.value.name } } as CelExpr['exprKind']),
      result: body,
    },
  } as CelExpr['exprKind'];
  return undefined;
}
