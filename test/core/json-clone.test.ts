import { parseAllDocuments } from 'yaml';
import { cloneJson } from '../../src/core/json-clone';
import { hostileInput } from '../support/hostile-inputs';

/**
 * JSON text that also shows what JSON cannot hold (a key holding undefined, NaN, infinities, -0).
 * Copies are compared by it, not with toStrictEqual: jest runs tests in a separate realm, and
 * structuredClone builds its objects with the outer realm's prototypes.
 */
function shown(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v) => {
    if (v === undefined) return '(undefined)';
    if (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0))) return `(${Object.is(v, -0) ? '-0' : String(v)})`;
    return v;
  });
}

/** Equal as structuredClone makes it, and independent of the original. */
function expectCopiedLikeStructuredClone(value: unknown): void {
  const copied = cloneJson(value);
  expect(shown(copied)).toBe(shown(structuredClone(value)));
  if (typeof value === 'object' && value !== null) expect(copied).not.toBe(value);
}

describe('cloneJson', () => {
  test('primitives, NaN, Infinity, undefined and empty containers as structuredClone copies them', () => {
    for (const v of [0, -0, 1.5, NaN, Infinity, -Infinity, '', 'x', true, false, null, undefined, [], {}]) expectCopiedLikeStructuredClone(v);
    expectCopiedLikeStructuredClone({ a: undefined, b: [undefined, NaN, { c: -Infinity }], d: { e: { f: 'g' } } });
  });

  test('an own __proto__ key stays an own property and never sets the prototype', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "labels": {"__proto__": "x", "constructor": "y"}}');
    const copied = cloneJson(hostile);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(['__proto__', 'labels']);
    expect((copied as any).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copied, '__proto__')?.value).toEqual({ polluted: true });
    expectCopiedLikeStructuredClone(hostile);
  });

  test('the copy is deep: changing it leaves the original alone', () => {
    const original = { spec: { args: ['a'], env: [{ name: 'X', value: '1' }] } };
    const copied = cloneJson(original);
    copied.spec.args.push('b');
    copied.spec.env[0].value = '2';
    expect(original).toEqual({ spec: { args: ['a'], env: [{ name: 'X', value: '1' }] } });
  });

  test('what is not a plain object or array is copied by structuredClone; cycles and deep nesting too', () => {
    const date = new Date('2026-11-27T00:00:00Z');
    class Settings { public constructor(public readonly level = 3) {} }
    expectCopiedLikeStructuredClone({ when: date, settings: new Settings(), nested: Object.create(null) });
    const cyclic: any = { name: 'loop', items: [] };
    cyclic.items.push(cyclic);
    const copied = cloneJson(cyclic);
    expect(copied.items[0].items[0].name).toBe('loop');
    let deep: any = 'bottom';
    for (let i = 0; i < 300; i++) deep = [{ level: i, deep }];
    const deepCopy = cloneJson({ deep });
    expect(JSON.stringify(deepCopy)).toBe(JSON.stringify({ deep }));
    expect(deepCopy.deep).not.toBe(deep);
  });

  test('every document of 300 hostile fuzzer inputs (seed 14) is copied as structuredClone copies it', () => {
    let documents = 0;
    for (let i = 0; i < 300; i++) {
      let values: unknown[];
      try {
        const text = hostileInput(14, i).bytes.toString('utf8');
        values = (parseAllDocuments(text) as any[]).map((doc) => doc.toJS?.({ maxAliasCount: 100 }));
      } catch {
        continue; // nested too deep for the parser, an alias bomb: no spec is copied from these
      }
      for (const value of values) {
        expectCopiedLikeStructuredClone(value);
        documents++;
      }
    }
    expect(documents).toBeGreaterThan(300);
  });
});
