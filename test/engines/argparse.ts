/**
 * Python's argparse, replayed over an engine parser's definition (the JSON that
 * scripts/engine-parsers/extract.py dumps from the real package into test/fixtures/engine-parsers/),
 * so the unit tests judge our command lines as the engine would without its 10 GB of Python.
 * The real parsers themselves run in `npm run test:engine-parsers` (scripts/engine-conformance.ts
 * --real), whose verdicts this replay must agree with (test/engines/argparse-agreement.test.ts).
 *
 * What is replayed is the part of argparse (CPython 3.11/3.12, Lib/argparse.py) that decides
 * acceptance: how each token is classified as an option or an argument (`--x=v`, unique prefixes
 * when the parser allows abbreviations, negative numbers, tokens with spaces), how many arguments
 * each action consumes by its `nargs`, positionals taking the arguments between options (so a stray
 * value after a switch becomes a positional, or an unrecognized argument), type conversion and
 * `choices`, required options, mutually exclusive groups, and the "unrecognized arguments" of
 * whatever is left. Type callables argparse cannot name (vLLM's `human_readable_int`, say) are
 * judged by the probes the extractor ran against the real callable; a value no probe covers is
 * accepted and reported in `unjudged`.
 */

/** One action of the real parser, as extract.py writes it. */
export interface ParserAction {
  readonly flags: readonly string[];
  readonly dest: string;
  readonly action: string;
  readonly nargs: null | string | number;
  readonly const?: unknown;
  readonly choices: readonly unknown[] | null;
  readonly type: string | null;
  readonly default?: unknown;
  readonly required?: boolean;
  readonly boolStrings?: readonly string[];
  readonly typeProbes?: Readonly<Record<string, boolean>>;
  /** What the real type callable returned for the probes it accepted. */
  readonly typeProbeValues?: Readonly<Record<string, unknown>>;
  /** The parser stage the option belongs to (see `ParserDefinition.stages`). */
  readonly stage?: string;
  /** The stock action a custom Action class derives from (`boolean_optional`, ...). */
  readonly baseAction?: string;
  /**
   * The flags that store False, for a custom boolean action that names them (vLLM >= 0.2x's
   * EnableDisableAction: `--disable-x` and the hidden `--no-enable-x`).
   */
  readonly negativeFlags?: readonly string[];
}

/** A real parser's definition (test/fixtures/engine-parsers/<parser>.json). */
export interface ParserDefinition {
  readonly parser: string;
  readonly package: string;
  readonly version: string;
  readonly entrypoint: readonly string[];
  readonly allowAbbrev: boolean;
  readonly prefixChars: string;
  /** Rewrites the real parser applies before argparse sees the tokens (see `preprocess`). */
  readonly customParsing?: string;
  readonly underscoreToDash?: boolean;
  /** The parser's class: vLLM's `FlexibleArgumentParser` reads `--foo_bar` as `--foo-bar`. */
  readonly parserClass?: string;
  readonly positionals: readonly ParserAction[];
  readonly options: readonly ParserAction[];
  readonly mutuallyExclusive?: readonly (readonly string[])[];
  /**
   * Parsers run one after the other (Dynamo's workers: its own parser's `parse_known_args`, then the
   * engine's parser on what is left); each option names its `stage`.
   */
  readonly stages?: ReadonlyArray<{ readonly stage: string; readonly parserClass?: string; readonly allowAbbrev: boolean; readonly prefixChars?: string; readonly parse: 'parse_args' | 'parse_known_args' }>;
}

/** What the replay concluded. */
export interface ParseVerdict {
  readonly accepted: boolean;
  /** argparse's message (its wording, so the real parsers' messages compare). */
  readonly error?: string;
  /** dest → parsed value, defaults included, as argparse's namespace. */
  readonly values: Record<string, unknown>;
  /** Values of option types no probe covered: accepted here, judged only by the real parser. */
  readonly unjudged: readonly string[];
}

class ArgparseError extends Error {}

interface OptionMatch {
  readonly action: ParserAction | undefined;
  readonly optionString: string;
  readonly explicitArg: string | undefined;
}

const NEGATIVE_NUMBER = /^-\d+$|^-\d*\.\d+$/;

/** Parses `argv` (without the program) as the real parser would. Never throws. */
export function parseArgs(given: ParserDefinition, argv: readonly string[]): ParseVerdict {
  // Positionals have no option strings (extract.py writes none).
  const def = { ...given, positionals: given.positionals.map((p) => ({ ...p, flags: p.flags ?? [] })) };
  const values: Record<string, unknown> = {};
  for (const a of [...def.positionals, ...def.options]) {
    if (a.action === 'help' || a.action === 'version') continue;
    if (!(a.dest in values)) values[a.dest] = a.default ?? null;
  }
  const unjudged: string[] = [];
  try {
    if (def.stages && def.stages.length > 0) {
      let rest = [...argv];
      for (const stage of def.stages) {
        const sub: ParserDefinition = {
          ...def,
          allowAbbrev: stage.allowAbbrev,
          prefixChars: stage.prefixChars ?? def.prefixChars,
          parserClass: stage.parserClass,
          underscoreToDash: undefined,
          options: def.options.filter((o) => o.stage === stage.stage),
          positionals: def.positionals.filter((o) => o.stage === stage.stage),
          stages: undefined,
        };
        const extras = new Replay(sub, values, unjudged).run(preprocess(sub, rest));
        if (stage.parse === 'parse_args' && extras.length) throw new ArgparseError(`unrecognized arguments: ${extras.join(' ')}`);
        rest = extras;
      }
    } else {
      const extras = new Replay(def, values, unjudged).run(preprocess(def, argv));
      if (extras.length) throw new ArgparseError(`unrecognized arguments: ${extras.join(' ')}`);
    }
    return { accepted: true, values, unjudged };
  } catch (e) {
    if (e instanceof ArgparseError) return { accepted: false, error: e.message, values, unjudged };
    throw e;
  }
}

/**
 * vLLM's FlexibleArgumentParser turns `--foo_bar` into `--foo-bar` before argparse sees it (the
 * extractor records it as `underscoreToDash`); other parsers are stock argparse.
 */
function preprocess(def: ParserDefinition, argv: readonly string[]): string[] {
  if (!(def.underscoreToDash ?? def.parserClass === 'FlexibleArgumentParser')) return [...argv];
  return argv.map((arg) => {
    if (!arg.startsWith('--')) return arg;
    // The key ends at the first '=' or '.' (a dotted JSON key): only its underscores change.
    const end = arg.slice(2).search(/[=.]/);
    const cut = end < 0 ? arg.length : end + 2;
    return arg.slice(0, cut).replace(/_/g, '-') + arg.slice(cut);
  });
}

/**
 * A probe of the same shape as `raw`, for a type callable the extractor probed: the probe itself,
 * else a representative (an integer, a decimal, a JSON object or list) whose verdict the callable
 * gives every string of that shape.
 */
function probeFor(action: ParserAction, raw: string): { accepted: boolean; value: unknown } | undefined {
  const probes = action.typeProbes;
  if (!probes) return undefined;
  const verdict = (key: string) => (key in probes ? { accepted: probes[key], value: action.typeProbeValues?.[key] } : undefined);
  const exact = verdict(raw);
  if (exact) return exact;
  let representative: string | undefined;
  if (/^\d+$/.test(raw)) {
    representative = '65536';
  } else if (/^-\d+$/.test(raw)) {
    representative = '-1';
  } else if (/^-?\d*\.\d+$/.test(raw)) {
    representative = '1.5';
  } else if (raw.startsWith('{') && isJson(raw) && probes['{"a": 1}'] === false && probes['{}'] === true) {
    // A JSON object read into a dataclass: its fields decide, which no probe shows.
    return undefined;
  } else if (raw.startsWith('{') || raw.startsWith('[')) {
    // JSON-looking text that is not JSON is judged like any other text that is not ('abc').
    representative = isJson(raw) ? (raw.startsWith('{') ? '{"a": 1}' : '[1, 2]') : 'abc';
  }
  const shaped = representative !== undefined ? verdict(representative) : undefined;
  if (!shaped) return undefined;
  // An accepted integer converts to itself when the representative did.
  const numeric = shaped.accepted && /^-?\d+$/.test(raw) && typeof shaped.value === 'number';
  const json = shaped.accepted && (raw.startsWith('{') || raw.startsWith('[')) && typeof shaped.value === 'object';
  return { accepted: shaped.accepted, value: numeric ? Number(raw) : json ? JSON.parse(raw) : raw };
}

function isJson(raw: string): boolean {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}

class Replay {
  private readonly byOption = new Map<string, ParserAction>();
  private readonly hasNegativeNumberOptions: boolean;
  private readonly seen = new Set<ParserAction>();
  private readonly exclusive = new Map<ParserAction, ParserAction[]>();

  constructor(private readonly def: ParserDefinition, private readonly values: Record<string, unknown>, private readonly unjudged: string[]) {
    for (const a of def.options) for (const f of a.flags) this.byOption.set(f, a);
    this.hasNegativeNumberOptions = [...this.byOption.keys()].some((f) => NEGATIVE_NUMBER.test(f));
    for (const group of def.mutuallyExclusive ?? []) {
      const members = group.map((f) => this.byOption.get(f)).filter((a): a is ParserAction => a !== undefined);
      for (const m of members) this.exclusive.set(m, [...(this.exclusive.get(m) ?? []), ...members.filter((o) => o !== m)]);
    }
  }

  /** Parses `args` (argparse's `parse_known_args`) and returns what it did not recognize. */
  run(args: string[]): string[] {
    // Classify every token: 'O' an option, 'A' an argument, '-' the `--` that ends the options.
    const optionAt = new Map<number, OptionMatch>();
    let pattern = '';
    let afterDoubleDash = false;
    args.forEach((arg, i) => {
      if (afterDoubleDash) { pattern += 'A'; return; }
      if (arg === '--') { afterDoubleDash = true; pattern += '-'; return; }
      const match = this.parseOptional(arg);
      if (match === undefined) {pattern += 'A';} else { optionAt.set(i, match); pattern += 'O'; }
    });

    const positionals = [...this.def.positionals];
    const extras: string[] = [];
    const consumePositionals = (start: number): number => {
      const counts = matchPartial(positionals, pattern.slice(start));
      let index = start;
      for (let k = 0; k < counts.length; k++) {
        const action = positionals[k];
        this.takeAction(action, args.slice(index, index + counts[k]), undefined);
        index += counts[k];
      }
      positionals.splice(0, counts.length);
      return index;
    };
    const consumeOptional = (start: number): number => {
      const { action, optionString, explicitArg } = optionAt.get(start)!;
      if (action === undefined) { extras.push(args[start]); return start + 1; }
      if (explicitArg !== undefined) {
        if (argCount(action, 'A') !== 1) throw new ArgparseError(`argument ${optionNames(action)}: ignored explicit argument '${explicitArg}'`);
        this.takeAction(action, [explicitArg], optionString);
        return start + 1;
      }
      const count = argCount(action, pattern.slice(start + 1));
      this.takeAction(action, args.slice(start + 1, start + 1 + count), optionString);
      return start + 1 + count;
    };

    const optionIndices = [...optionAt.keys()];
    const maxOptionIndex = optionIndices.length ? Math.max(...optionIndices) : -1;
    let start = 0;
    while (start <= maxOptionIndex) {
      const next = Math.min(...optionIndices.filter((i) => i >= start));
      if (start !== next) {
        const end = consumePositionals(start);
        if (end > start) { start = end; continue; }
        start = end;
      }
      if (!optionAt.has(start)) {
        extras.push(...args.slice(start, next));
        start = next;
      }
      start = consumeOptional(start);
    }
    const stop = consumePositionals(start);
    extras.push(...args.slice(stop));

    const missing = [...this.def.options, ...positionals]
      .filter((a) => !this.seen.has(a) && (a.required || (a.flags.length === 0 && isRequiredPositional(a))))
      .map((a) => (a.flags.length ? a.flags.join('/') : a.dest));
    if (missing.length) throw new ArgparseError(`the following arguments are required: ${missing.join(', ')}`);
    return extras;
  }

  private parseOptional(arg: string): OptionMatch | undefined {
    const chars = this.def.prefixChars;
    if (arg === '' || !chars.includes(arg[0])) return undefined;
    const exact = this.byOption.get(arg);
    if (exact) return { action: exact, optionString: arg, explicitArg: undefined };
    if (arg.length === 1) return undefined;
    const eq = arg.indexOf('=');
    if (eq >= 0) {
      const action = this.byOption.get(arg.slice(0, eq));
      if (action) return { action, optionString: arg.slice(0, eq), explicitArg: arg.slice(eq + 1) };
    }
    const candidates = this.optionTuples(arg);
    const distinct = [...new Map(candidates.map((c) => [c.action, c])).values()];
    if (distinct.length > 1) {
      throw new ArgparseError(`ambiguous option: ${arg} could match ${candidates.map((c) => c.optionString).join(', ')}`);
    }
    if (distinct.length === 1) return distinct[0];
    if (NEGATIVE_NUMBER.test(arg) && !this.hasNegativeNumberOptions) return undefined;
    if (arg.includes(' ')) return undefined;
    return { action: undefined, optionString: arg, explicitArg: undefined };
  }

  /** argparse's `_get_option_tuples`: the options a token may abbreviate. */
  private optionTuples(arg: string): OptionMatch[] {
    const chars = this.def.prefixChars;
    const out: OptionMatch[] = [];
    if (chars.includes(arg[1])) {
      if (!this.def.allowAbbrev) return out;
      const eq = arg.indexOf('=');
      const prefix = eq >= 0 ? arg.slice(0, eq) : arg;
      const explicitArg = eq >= 0 ? arg.slice(eq + 1) : undefined;
      for (const [flag, action] of this.byOption) if (flag.startsWith(prefix)) out.push({ action, optionString: flag, explicitArg });
    } else {
      const short = arg.slice(0, 2);
      for (const [flag, action] of this.byOption) {
        if (flag === short) out.push({ action, optionString: flag, explicitArg: arg.slice(2) });
        else if (this.def.allowAbbrev && flag.startsWith(arg)) out.push({ action, optionString: flag, explicitArg: undefined });
      }
    }
    return out;
  }

  private takeAction(action: ParserAction, args: string[], optionString: string | undefined): void {
    this.seen.add(action);
    for (const other of this.exclusive.get(action) ?? []) {
      if (this.seen.has(other)) throw new ArgparseError(`argument ${optionNames(action)}: not allowed with argument ${optionNames(other)}`);
    }
    const value = this.valuesOf(action, args.filter((a) => a !== '--'));
    switch (action.action) {
      case 'store':
        this.values[action.dest] = value;
        return;
      case 'store_const':
        this.values[action.dest] = action.const ?? null;
        return;
      case 'store_true':
        this.values[action.dest] = true;
        return;
      case 'store_false':
        this.values[action.dest] = false;
        return;
      case 'boolean_optional':
        this.values[action.dest] = !(optionString ?? '').startsWith('--no-');
        return;
      case 'append':
      case 'extend': {
        const prior = Array.isArray(this.values[action.dest]) ? (this.values[action.dest] as unknown[]) : [];
        const added = action.action === 'extend' && Array.isArray(value) ? value : [value];
        this.values[action.dest] = [...prior, ...added];
        return;
      }
      case 'append_const': {
        const prior = Array.isArray(this.values[action.dest]) ? (this.values[action.dest] as unknown[]) : [];
        this.values[action.dest] = [...prior, action.const ?? null];
        return;
      }
      case 'count':
        this.values[action.dest] = (typeof this.values[action.dest] === 'number' ? (this.values[action.dest] as number) : 0) + 1;
        return;
      case 'help':
      case 'version':
        // The real parser prints and exits 0: the engine would not start serving.
        throw new ArgparseError(`argument ${optionNames(action)}: prints ${action.action} and exits`);
      default:
        if (action.baseAction === 'boolean_optional' && action.negativeFlags) {
          // A BooleanOptionalAction subclass that lists its negative flags: True unless one of them.
          this.values[action.dest] = !action.negativeFlags.includes(optionString ?? '');
          return;
        }
        // A custom Action class: its effect is unknown here, its arguments were consumed.
        this.values[action.dest] = value;
    }
  }

  /** argparse's `_get_values`: converted and checked against `choices`. */
  private valuesOf(action: ParserAction, args: string[]): unknown {
    if (args.length === 0 && action.nargs === '?') {
      const v = action.flags.length ? (action.const ?? null) : (action.default ?? null);
      return typeof v === 'string' ? this.checked(action, v) : v;
    }
    if (args.length === 0 && action.nargs === '*' && action.flags.length === 0) return action.default ?? [];
    if (args.length === 1 && (action.nargs === null || action.nargs === '?')) return this.checked(action, args[0]);
    if (argCountOf(action) === 0) return [];
    return args.map((a) => this.checked(action, a));
  }

  private checked(action: ParserAction, raw: string): unknown {
    const value = this.converted(action, raw);
    if (action.choices && !action.choices.some((c) => c === value)) {
      const choices = action.choices.map((c) => (typeof c === 'string' ? `'${c}'` : String(c))).join(', ');
      throw new ArgparseError(`argument ${optionNames(action)}: invalid choice: '${raw}' (choose from ${choices})`);
    }
    return value;
  }

  private converted(action: ParserAction, raw: string): unknown {
    const type = action.type ?? 'str';
    const fail = (): never => {
      throw new ArgparseError(`argument ${optionNames(action)}: invalid ${type.replace(/^other:/, '')} value: '${raw}'`);
    };
    switch (type) {
      case 'str':
        return raw;
      case 'int':
        if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(raw)) fail();
        return Number(raw.replace(/_/g, ''));
      case 'float': {
        const n = pythonFloat(raw);
        if (n === undefined) fail();
        return n;
      }
      case 'json':
        try {
          return JSON.parse(raw);
        } catch {
          return fail();
        }
      case 'bool': {
        const strings = action.boolStrings;
        if (strings && !strings.includes(raw.toLowerCase())) fail();
        return ['true', '1', 'yes', 'y', 'on'].includes(raw.toLowerCase());
      }
      default: {
        const probe = probeFor(action, raw);
        if (probe?.accepted === false) fail();
        if (probe === undefined) {
          this.unjudged.push(`${optionNames(action)} ${raw}`);
          return /^[[{]/.test(raw) && isJson(raw) ? JSON.parse(raw) : raw;
        }
        return probe.value ?? raw;
      }
    }
  }
}

function optionNames(action: ParserAction): string {
  return action.flags.length ? action.flags.join('/') : action.dest;
}

function isRequiredPositional(action: ParserAction): boolean {
  return !(action.nargs === '?' || action.nargs === '*');
}

function argCountOf(action: ParserAction): number | undefined {
  if (['store_true', 'store_false', 'store_const', 'append_const', 'count', 'help', 'version', 'boolean_optional'].includes(action.action)) return 0;
  if (action.baseAction === 'boolean_optional') return 0;
  return typeof action.nargs === 'number' ? action.nargs : undefined;
}

/** argparse's `_get_nargs_pattern` for an option (its `-*` removed, as argparse does). */
function nargsPattern(action: ParserAction, forOption: boolean): string {
  const zero = argCountOf(action) === 0;
  let p: string;
  if (zero) p = '(-*-*)';
  else if (action.nargs === null) p = '(-*A-*)';
  else if (action.nargs === '?') p = '(-*A?-*)';
  else if (action.nargs === '*') p = '(-*[A-]*)';
  else if (action.nargs === '+') p = '(-*A[A-]*)';
  else if (action.nargs === '...') p = '([-AO]*)';
  else if (action.nargs === 'A...') p = '(-*A[-AO]*)';
  else if (typeof action.nargs === 'number') p = `(-*${'A-*'.repeat(action.nargs)})`;
  else p = '(-*A-*)';
  if (forOption) p = p.replace(/-\*/g, '').replace(/-/g, '');
  return p;
}

/** How many of the tokens `pattern` starts with `action` (an option) consumes, or argparse's error. */
function argCount(action: ParserAction, pattern: string): number {
  const m = new RegExp(`^${nargsPattern(action, true)}`).exec(pattern);
  if (m) return m[1].length;
  let message: string;
  if (action.nargs === null) message = 'expected one argument';
  else if (action.nargs === '?') message = 'expected at most one argument';
  else if (action.nargs === '+') message = 'expected at least one argument';
  else message = `expected ${action.nargs} argument${action.nargs === 1 ? '' : 's'}`;
  throw new ArgparseError(`argument ${optionNames(action)}: ${message}`);
}

/** argparse's `_match_arguments_partial`: as many positionals as match, each one's token count. */
function matchPartial(positionals: readonly ParserAction[], pattern: string): number[] {
  for (let n = positionals.length; n > 0; n--) {
    const re = new RegExp(`^${positionals.slice(0, n).map((a) => nargsPattern(a, false)).join('')}`);
    const m = re.exec(pattern);
    if (m) return m.slice(1).map((g) => g.length);
  }
  return [];
}

/** Python's `float()` of a string, or undefined where it raises. */
function pythonFloat(raw: string): number | undefined {
  const s = raw.trim().toLowerCase().replace(/_/g, '');
  if (/^[+-]?(inf|infinity)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(s)) return NaN;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return Number(s);
  return undefined;
}
