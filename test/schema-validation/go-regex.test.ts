import { translateGoPattern } from '../../src/schema-validation/go-regex';

/** The translated pattern, or throws with the reason it is unsupported. */
function ecma(pattern: string): string {
  const t = translateGoPattern(pattern);
  if ('unsupported' in t) {
    throw new Error(t.unsupported);
  }
  return t.pattern;
}

describe('translateGoPattern', () => {
  test('a pattern both dialects accept is unchanged', () => {
    expect(ecma('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')).toBe('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
  });

  test('an inline flag applies to the end of the enclosing group, as in Go', () => {
    expect(ecma('^(?i)(abort|warn)?$')).toBe('^(?i:(abort|warn)?$)');
    const whole = new RegExp(ecma('^(?i)(abort|warn)?$'), 'u');
    expect(['ABORT', 'Warn', '', 'abort'].every((s) => whole.test(s))).toBe(true);
    expect(whole.test('drop')).toBe(false);
    // Inside a group, the flag stops where that group does.
    const scoped = new RegExp(`^${ecma('(a(?i)b)c')}$`, 'u');
    expect(scoped.test('aBc')).toBe(true);
    expect(scoped.test('aBC')).toBe(false);
    expect(scoped.test('ABc')).toBe(false);
  });

  test('flag groups with a body, negated flags and Go named groups', () => {
    expect(new RegExp(ecma('^(?i:x)y$'), 'u').test('Xy')).toBe(true);
    expect(new RegExp(ecma('^(?i)a(?-i)b$'), 'u').test('Ab')).toBe(true);
    expect(new RegExp(ecma('^(?i)a(?-i)b$'), 'u').test('AB')).toBe(false);
    expect(new RegExp(ecma('^(?P<word>[a-z]+)$'), 'u').exec('abc')?.groups?.word).toBe('abc');
  });

  test('\\A and \\z match only at the very start and end of the text', () => {
    const re = new RegExp(ecma('\\Aab\\z'), 'u');
    expect(re.test('ab')).toBe(true);
    expect(re.test('xab')).toBe(false);
    expect(re.test('ab\n')).toBe(false);
  });

  test('escapes and character classes are copied, not read as groups', () => {
    expect(ecma('^\\((?i)x\\)$')).toBe('^\\((?i:x\\)$)');
    expect(ecma('^[(](?i)x$')).toBe('^[(](?i:x$)');
    expect(new RegExp(ecma('^[]a](?i)b$'), 'u').test(']B')).toBe(true);
  });

  test('fails when Go syntax has no ECMAScript equivalent, with the reason', () => {
    expect(translateGoPattern('(?U)a+')).toEqual({ unsupported: "Go's ungreedy flag (?U) has no ECMAScript equivalent" });
    expect(translateGoPattern('^[[:alpha:]]+$(?i)')).toEqual({ unsupported: expect.stringMatching(/^not expressible as an ECMAScript regular expression: /) });
    expect(translateGoPattern('a)(?i)')).toEqual({ unsupported: 'unbalanced parenthesis' });
  });
});
