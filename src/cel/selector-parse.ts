/**
 * Parsing a DRA device selector, with the limits that keep hostile input from crashing or hanging
 * the build: the text must be a non-blank string of at most 10 KiB (UTF-8 bytes, Kubernetes'
 * limit for `DeviceSelector.cel.expression`), brackets may nest at most 100 levels (the parser is
 * recursive descent and slows down steeply on deep unclosed nesting) and the parsed expression at
 * most 250 levels (the checker and the evaluator recurse over it). Each limit is reported as an
 * error at the place it is exceeded, never thrown.
 *
 * `cel.bind(name, value, expr)`, which Kubernetes enables for selectors and @bufbuild/cel does not
 * expand, is rewritten here into the comprehension it stands for: `name` is bound to `value`
 * while `expr` is evaluated.
 */
import { CelExpr, CelPositions } from './ast';
import { celModules } from './kubernetes-libraries';
import { DeviceSelectorError, selectorError } from './selector-error';

/** Kubernetes' limit on the length of a selector expression, in bytes (`resource.k8s.io/v1` CELDeviceSelector). */
export const SELECTOR_MAX_BYTES = 10 * 1024;
/** How deep brackets may nest. */
export const SELECTOR_MAX_BRACKET_NESTING = 100;
/** How deep the parsed expression may be. */
export const SELECTOR_MAX_DEPTH = 250;

/** A parsed selector: the expression and where each node starts in the text. */
export interface ParsedSelector {
  readonly expression: string;
  readonly expr: CelExpr;
  readonly positions: CelPositions;
}

/** The parsed selector, or the error that stops it. */
export type SelectorParse =
  | { readonly parsed: ParsedSelector; readonly error?: undefined }
  | { readonly parsed?: undefined; readonly error: DeviceSelectorError };

/** Parses a selector within the limits; never throws. */
export function parseSelector(expression: unknown): SelectorParse {
  if (typeof expression !== 'string') {
    return fail('', 0, `a device selector must be a string, not ${expression === null ? 'null' : typeof expression}`);
  }
  if (expression.trim() === '') {
    return fail(expression, 0, 'the expression is empty');
  }
  const bytes = Buffer.byteLength(expression, 'utf8');
  if (bytes > SELECTOR_MAX_BYTES) {
    return fail(expression, offsetOfByte(expression, SELECTOR_MAX_BYTES), `the expression is ${bytes} bytes long; Kubernetes allows at most ${SELECTOR_MAX_BYTES} (10 Ki)`);
  }
  const scan = scanBrackets(expression);
  if (scan.tooDeep !== undefined) {
    return fail(expression, scan.tooDeep, `brackets nest more than ${SELECTOR_MAX_BRACKET_NESTING} levels deep`);
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
    return fail(expression, skipBlanks(expression, positionOf(positions, deep)), `the expression is nested more than ${SELECTOR_MAX_DEPTH} levels deep`);
  }
  const selector: ParsedSelector = { expression, expr: parsed.expr, positions };
  const ids = { next: maxId(parsed.expr) + 1n };
  const bindError = expandBinds(selector, parsed.expr, ids);
  return bindError ? { error: bindError } : { parsed: selector };
}

/** Where a node starts in the text (0 when the parser did not record it). */
export function positionOf(positions: CelPositions, expr: CelExpr): number {
  return positions[String(expr.id)] ?? 0;
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

/** The direct sub-expressions of a node, in source order. */
export function childrenOf(expr: CelExpr): CelExpr[] {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'selectExpr':
      return kind.value.operand ? [kind.value.operand] : [];
    case 'callExpr':
      return [...(kind.value.target ? [kind.value.target] : []), ...kind.value.args];
    case 'listExpr':
      return [...kind.value.elements];
    case 'structExpr':
      return kind.value.entries.flatMap((e) => [...(e.keyKind.case === 'mapKey' ? [e.keyKind.value] : []), ...(e.value ? [e.value] : [])]);
    case 'comprehensionExpr': {
      const c = kind.value;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].filter((x): x is CelExpr => x !== undefined);
    }
    default:
      return [];
  }
}

function fail(expression: string, offset: number, message: string): SelectorParse {
  return { error: selectorError(expression, offset, message) };
}

/** The string index where the UTF-8 encoding passes `limit` bytes. */
function offsetOfByte(text: string, limit: number): number {
  let bytes = 0;
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > limit) {
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
      if (++depth > SELECTOR_MAX_BRACKET_NESTING) {
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
    if (depth > SELECTOR_MAX_DEPTH) {
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
function expandBinds(selector: ParsedSelector, expr: CelExpr, ids: { next: bigint }): DeviceSelectorError | undefined {
  for (const child of childrenOf(expr)) {
    const error = expandBinds(selector, child, ids);
    if (error) return error;
  }
  const kind = expr.exprKind;
  if (kind.case !== 'callExpr' || kind.value.function !== 'bind' || kind.value.target?.exprKind.case !== 'identExpr' || kind.value.target.exprKind.value.name !== 'cel') {
    return undefined;
  }
  const at = positionOf(selector.positions, expr);
  const [name, init, body] = kind.value.args;
  if (kind.value.args.length !== 3) {
    return selectorError(selector.expression, at, `cel.bind() takes 3 arguments (a variable name, its value, an expression), not ${kind.value.args.length}`);
  }
  if (name.exprKind.case !== 'identExpr') {
    return selectorError(selector.expression, positionOf(selector.positions, name), 'the first argument of cel.bind() must be a simple variable name');
  }
  // New nodes get ids of their own, placed where the cel.bind call is.
  const node = (exprKind: CelExpr['exprKind']): CelExpr => {
    const id = ids.next++;
    selector.positions[String(id)] = at;
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
