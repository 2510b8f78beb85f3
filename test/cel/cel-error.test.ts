import { celError } from '../../src/cel/cel-error';

describe('celError', () => {
  test('line, column and offset; the line quoted with a caret under the column', () => {
    const e = celError('a &&\n  b', 7, 'bad');
    expect(e).toEqual({ message: 'bad', line: 2, column: 3, offset: 7, formatted: '<input>:2:3: bad\n |   b\n | ..^' });
  });

  test('offsets beyond the text point just after its end', () => {
    expect(celError('ab', 99, 'x')).toMatchObject({ line: 1, column: 3, offset: 2 });
    expect(celError('ab', -5, 'x')).toMatchObject({ line: 1, column: 1, offset: 0 });
  });

  test('a long line is quoted as a window around the column', () => {
    const text = `${'a'.repeat(500)}X${'b'.repeat(500)}`;
    const [, quoted, caret] = celError(text, 500, 'here').formatted.split('\n');
    expect(quoted).toBe(` | …${'a'.repeat(50)}X${'b'.repeat(49)}…`);
    expect(caret).toBe(` | ${'.'.repeat(51)}^`);
    expect(celError(text, 0, 'start').formatted.split('\n')[1]).toBe(` | ${'a'.repeat(100)}…`);
    expect(celError(text, 1000, 'end').formatted.split('\n')[2]).toBe(` | ${'.'.repeat(100)}^`);
  });

  test('control characters are shown as symbols in the quote and escaped in the message', () => {
    const e = celError('a\u0001b\u007f', 3, 'found \u0001');
    expect(e.message).toBe('found \\u0001');
    expect(e.formatted).toBe('<input>:1:4: found \\u0001\n | a\u2401b\u2421\n | ...^');
  });

  test('columns count characters: an emoji is one column', () => {
    expect(celError('"😀" x', 5, 'x')).toMatchObject({ column: 5, offset: 5 });
    expect(celError('"😀" x', 5, 'x').formatted.split('\n')[2]).toBe(' | ....^');
  });
});
