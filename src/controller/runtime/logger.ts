/**
 * Structured logs: one JSON object per line (`ts`, `level`, `msg`, then the fields), like
 * controller-runtime's zap logger in production mode, so log pipelines parse them as they parse
 * any other controller's.
 */

export type LogLevel = 'debug' | 'info' | 'error';

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, error: 2 };

/** Fields of a log line: `controller`, `namespace`, `name`, `error`, and anything else. */
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  with(fields: LogFields): Logger;
}

export interface JsonLoggerOptions {
  /** Lines below this level are dropped. */
  readonly level: LogLevel;
  /** Receives each line, without the newline. */
  readonly write: (line: string) => void;
  /** Timestamps. @default Date.now */
  readonly now?: () => number;
}

/** A logger writing one JSON object per line. */
export function jsonLogger(options: JsonLoggerOptions, base: LogFields = {}): Logger {
  const now = options.now ?? Date.now;
  const log = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (LEVEL_ORDER[level] < LEVEL_ORDER[options.level]) return;
    const line: Record<string, unknown> = { ts: new Date(now()).toISOString(), level, msg };
    for (const [k, v] of Object.entries({ ...base, ...fields })) {
      if (v === undefined || k === 'ts' || k === 'level' || k === 'msg') continue;
      line[k] = k === 'error' ? errorText(v) : v;
    }
    let text: string;
    try {
      text = JSON.stringify(line);
    } catch {
      text = JSON.stringify({ ts: line.ts, level, msg, error: 'log fields could not be serialized' });
    }
    options.write(text);
  };
  return {
    debug: (msg, fields) => log('debug', msg, fields),
    info: (msg, fields) => log('info', msg, fields),
    error: (msg, fields) => log('error', msg, fields),
    with: (fields) => jsonLogger(options, { ...base, ...fields }),
  };
}

/** A logger that drops everything. */
export const NULL_LOGGER: Logger = {
  debug: () => {},
  info: () => {},
  error: () => {},
  with: () => NULL_LOGGER,
};

/** The message of an error (or the value itself), for the `error` field. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return typeof e === 'string' ? e : JSON.stringify(e) ?? String(e);
}
