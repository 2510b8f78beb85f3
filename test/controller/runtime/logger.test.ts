import { jsonLogger } from '../../../src/controller/runtime/logger';

describe('jsonLogger', () => {
  test('writes one JSON object per line: ts, level, msg, then the fields; errors as their message', () => {
    const lines: string[] = [];
    const log = jsonLogger({ level: 'info', write: (l) => lines.push(l), now: () => Date.UTC(2026, 10, 24, 3, 0, 0, 123) });
    log.with({ controller: 'modeldeployment-status' }).error('Reconciler error', { namespace: 'ml', name: 'qwen', error: new Error('boom') });
    expect(lines).toEqual([
      '{"ts":"2026-11-24T03:00:00.123Z","level":"error","msg":"Reconciler error","controller":"modeldeployment-status","namespace":"ml","name":"qwen","error":"boom"}',
    ]);
  });

  test('drops lines below the level; debug shows everything', () => {
    const lines: string[] = [];
    const info = jsonLogger({ level: 'info', write: (l) => lines.push(l) });
    info.debug('hidden');
    info.info('shown');
    const debug = jsonLogger({ level: 'debug', write: (l) => lines.push(l) });
    debug.debug('also shown');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['shown', 'also shown']);
  });

  test('fields cannot overwrite ts, level or msg; undefined fields are left out; a cycle does not throw', () => {
    const lines: string[] = [];
    const log = jsonLogger({ level: 'info', write: (l) => lines.push(l) });
    const cyclic: any = {};
    cyclic.self = cyclic;
    log.info('m', { level: 'debug', msg: 'x', skipped: undefined });
    log.info('c', { obj: cyclic });
    expect(JSON.parse(lines[0])).toEqual({ ts: expect.any(String), level: 'info', msg: 'm' });
    expect(JSON.parse(lines[1]).error).toMatch(/could not be serialized/);
  });
});
