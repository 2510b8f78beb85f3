/**
 * A syntactic check of the PromQL we generate, so a typo in a rule template fails the synth (and
 * the tests) instead of being rejected by the Prometheus Operator's admission webhook or, worse,
 * loaded by Prometheus as a rule that never fires. It is not a PromQL parser: it checks that
 * brackets balance and quotes close, and that every name called like a function is one of
 * PromQL's functions or aggregation operators. Type errors (a range vector where an instant
 * vector belongs) are out of its reach; the rule tests pin the exact expressions instead.
 */

/** PromQL's aggregation operators (they take `by`/`without` and a parenthesised vector). */
const AGGREGATIONS = new Set([
  'sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile',
  'limitk', 'limit_ratio',
]);

/** PromQL's functions, as of Prometheus 3. */
const FUNCTIONS = new Set([
  'abs', 'absent', 'absent_over_time', 'ceil', 'changes', 'clamp', 'clamp_max', 'clamp_min', 'day_of_month',
  'day_of_week', 'day_of_year', 'days_in_month', 'delta', 'deriv', 'exp', 'floor', 'histogram_avg', 'histogram_count',
  'histogram_fraction', 'histogram_quantile', 'histogram_stddev', 'histogram_stdvar', 'histogram_sum', 'double_exponential_smoothing',
  'hour', 'idelta', 'increase', 'irate', 'label_join', 'label_replace', 'ln', 'log2', 'log10', 'minute', 'month',
  'predict_linear', 'rate', 'resets', 'round', 'scalar', 'sgn', 'sort', 'sort_desc', 'sort_by_label', 'sort_by_label_desc',
  'sqrt', 'time', 'timestamp', 'vector', 'year', 'avg_over_time', 'min_over_time', 'max_over_time', 'sum_over_time',
  'count_over_time', 'quantile_over_time', 'stddev_over_time', 'stdvar_over_time', 'last_over_time', 'present_over_time',
  'mad_over_time', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'cos', 'cosh', 'sin', 'sinh', 'tan', 'tanh', 'deg',
  'pi', 'rad',
]);

/** Keywords followed by a parenthesised label list, not a call. */
const LABEL_LIST_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

const OPENERS: { [close: string]: string } = { ')': '(', '}': '{', ']': '[' };

/**
 * The syntax problems of a PromQL expression, each naming what and where (0-based offset).
 * @returns empty when the expression passes the check
 */
export function promqlSyntaxErrors(expr: string): string[] {
  const errors: string[] = [];
  const stack: Array<{ char: string; at: number }> = [];
  if (expr.trim() === '') return ['the expression is empty'];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (c === '"' || c === '\'' || c === '`') {
      const end = closingQuote(expr, i);
      if (end < 0) return [...errors, `the string opened at ${i} is not closed`];
      i = end + 1;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') {
      stack.push({ char: c, at: i });
    } else if (c in OPENERS) {
      const open = stack.pop();
      if (!open || open.char !== OPENERS[c]) {
        errors.push(`"${c}" at ${i} closes ${open ? `"${open.char}" opened at ${open.at}` : 'nothing'}`);
      }
    } else if (/[A-Za-z_:]/.test(c)) {
      const name = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(expr.slice(i))![0];
      const insideBraces = stack.length > 0 && stack[stack.length - 1].char === '{';
      const next = expr.slice(i + name.length).trimStart();
      if (!insideBraces && next.startsWith('(') && !AGGREGATIONS.has(name) && !FUNCTIONS.has(name) && !LABEL_LIST_KEYWORDS.has(name)) {
        errors.push(`"${name}" at ${i} is called like a function but is not a PromQL function or aggregation`);
      }
      i += name.length;
      continue;
    }
    i++;
  }
  for (const open of stack) errors.push(`"${open.char}" opened at ${open.at} is not closed`);
  return errors;
}

/** Index of the quote closing the string that opens at `start`, or -1. Backquoted strings have no escapes. */
function closingQuote(expr: string, start: number): number {
  const quote = expr[start];
  for (let j = start + 1; j < expr.length; j++) {
    if (quote !== '`' && expr[j] === '\\') {
      j++;
      continue;
    }
    if (expr[j] === quote) return j;
  }
  return -1;
}
