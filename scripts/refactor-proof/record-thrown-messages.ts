/**
 * A jest setup file that records the message of every error a test checks with `toThrow` /
 * `toThrowError`, so a refactor can prove that no bad-input message changed (issue 27): run the
 * whole suite with it before and after and diff the two records.
 *
 *   THROWN_MESSAGES_DIR=/tmp/before npx jest --runInBand \
 *     --setupFilesAfterEnv ./scripts/refactor-proof/record-thrown-messages.ts
 *   npx ts-node --project scripts/tsconfig.json scripts/refactor-proof/collect-thrown-messages.ts /tmp/before > before.txt
 *
 * Each checked function runs once (a second run could fail differently: a construct id already
 * taken); the matcher then sees a function that rethrows the same error, so the test passes or
 * fails exactly as without the recorder. One file per test file, one line per check:
 * `test name<TAB>message` (newlines in messages escaped), in the order the checks ran.
 */
import * as fs from 'fs';
import * as path from 'path';

const dir = process.env.THROWN_MESSAGES_DIR;
const THROW_MATCHERS = new Set(['toThrow', 'toThrowError']);

function record(message: string): void {
  if (!dir) return;
  const state = expect.getState();
  const testFile = path.relative(process.cwd(), state.testPath ?? 'unknown').replace(/[\\/]/g, '__');
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${testFile}.txt`), `${state.currentTestName ?? ''}\t${JSON.stringify(message)}\n`);
}

function runOnce(fn: () => unknown): () => unknown {
  try {
    fn();
  } catch (err) {
    record(err instanceof Error ? err.message : String(err));
    return () => {
      throw err;
    };
  }
  record('(did not throw)');
  return () => undefined;
}

const realExpect = (global as unknown as { expect: typeof expect }).expect;

function recordingExpect(actual: unknown): unknown {
  if (typeof actual !== 'function') return realExpect(actual);
  const matchersFor = (negated: boolean): object =>
    new Proxy(negated ? realExpect(actual).not : realExpect(actual), {
      get(target, key, receiver) {
        if (key === 'not' && !negated) return matchersFor(true);
        if (typeof key === 'string' && THROW_MATCHERS.has(key)) {
          return (...args: unknown[]) => {
            const replay = runOnce(actual as () => unknown);
            const m = negated ? realExpect(replay).not : realExpect(replay);
            return (m as unknown as Record<string, (...a: unknown[]) => unknown>)[key](...args);
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
  return matchersFor(false);
}

Object.assign(recordingExpect, realExpect);
(global as unknown as { expect: unknown }).expect = recordingExpect;
