import { functionOverloads, methodOverloads } from '../../src/cel/overloads';
import { BOOL, DYN, ERROR, FREE, fits, INT, join, listOf, mapOf, NULL, parseTypeName, QUANTITY, SEMVER, STRING, substitute, typeName } from '../../src/cel/types';

describe('CEL types of the selector checker', () => {
  test('names as CEL prints them', () => {
    expect([INT, NULL, DYN, QUANTITY, SEMVER, listOf(STRING), mapOf(STRING, listOf(DYN)), FREE].map(typeName)).toEqual([
      'int', 'null_type', 'dyn', 'kubernetes.Quantity', 'kubernetes.Semver', 'list(string)', 'map(string, list(dyn))', 'dyn',
    ]);
    expect(typeName(parseTypeName('map(K, list(A))'))).toBe('map(K, list(A))');
  });

  test('dyn fits everything and everything fits dyn; null fits object types', () => {
    expect(fits(INT, DYN, new Map())).toBe(true);
    expect(fits(DYN, QUANTITY, new Map())).toBe(true);
    expect(fits(QUANTITY, NULL, new Map())).toBe(true);
    expect(fits(STRING, NULL, new Map())).toBe(false);
    expect(fits(QUANTITY, SEMVER, new Map())).toBe(false);
    expect(fits(listOf(INT), listOf(FREE), new Map())).toBe(true);
    expect(fits(INT, ERROR, new Map())).toBe(true);
  });

  test('type parameters bind on first use', () => {
    const a = parseTypeName('A');
    const bindings = new Map();
    expect(fits(a, INT, bindings)).toBe(true);
    expect(fits(a, STRING, bindings)).toBe(false);
    expect(typeName(substitute(parseTypeName('list(A)'), bindings))).toBe('list(int)');
    expect(typeName(substitute(a, new Map()))).toBe('dyn');
  });

  test('join: the same type stays, an unknown element type gives way, different types are dyn', () => {
    expect(typeName(join(INT, INT))).toBe('int');
    expect(typeName(join(FREE, STRING))).toBe('string');
    expect(typeName(join(listOf(FREE), listOf(BOOL)))).toBe('list(bool)');
    expect(typeName(join(INT, STRING))).toBe('dyn');
    expect(typeName(join(NULL, QUANTITY))).toBe('kubernetes.Quantity');
  });

  test('the overload table: functions and methods by name', () => {
    expect(functionOverloads('kubernetes', 'quantity').map((o) => o.text)).toEqual(['quantity(string) quantity']);
    expect(functionOverloads('kubernetes', 'semver').map((o) => o.text)).toEqual(['semver(string) semver', 'semver(string, bool) semver']);
    expect(methodOverloads('kubernetes', 'compareTo').map((o) => typeName(o.target!))).toEqual(['kubernetes.Quantity', 'kubernetes.Semver']);
    expect(methodOverloads('kubernetes', 'join').map((o) => typeName(o.target!))).toEqual(['list(string)', 'list(string)']);
    expect(functionOverloads('kubernetes', '_<_').length).toBe(8 + 6); // same-type orderings and the cross-type numeric ones
    expect(functionOverloads('kubernetes', 'startsWith')).toEqual([]);
    // cel-go's default library: no cross-type numeric orderings, no extensions.
    expect(functionOverloads('cel-go', '_<_').length).toBe(8);
    expect(methodOverloads('cel-go', 'lowerAscii')).toEqual([]);
    expect(functionOverloads('cel-go', 'quantity')).toEqual([]);
  });
});
