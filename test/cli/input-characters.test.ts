import { invalidUtf8Problem, unprintableCharacterProblem } from '../../src/cli/input-characters';

describe('input characters', () => {
  test('a control character is found at its document, line and column; documents start at --- lines', () => {
    expect(unprintableCharacterProblem('# notes\n---\na: 1\n---\nb: x\u0001\n')).toMatchObject({ index: 1, line: 5, col: 5, message: expect.stringContaining('U+0001') });
    expect(unprintableCharacterProblem('a: 1\n---\n---\nc: \u0085\u009f\n')).toMatchObject({ index: 2, line: 4, col: 5, message: expect.stringContaining('U+009F') });
    expect(unprintableCharacterProblem('\uFEFFa: "\t\u00a0\ud83d\ude00\ufffd"\r\n')).toBeUndefined();
    expect(unprintableCharacterProblem('a: \uffff')).toMatchObject({ index: 0, line: 1, col: 4 });
  });

  test('bytes that are not UTF-8 are found at their line and document; UTF-8 of any plane is not', () => {
    const bytes = Buffer.concat([Buffer.from('---\na: 1\n---\nb: "\u00e9\ud83d\ude00"\nc: '), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]);
    expect(invalidUtf8Problem(bytes)).toMatchObject({ index: 1, line: 5, col: 1, message: expect.stringContaining('not valid UTF-8') });
    // A sequence cut at the end of the input, and an overlong encoding of '/'.
    expect(invalidUtf8Problem(Buffer.from([0x61, 0x3a, 0x20, 0xe2, 0x82]))).toMatchObject({ index: 0, line: 1 });
    expect(invalidUtf8Problem(Buffer.from([0x61, 0x0a, 0xc0, 0xaf]))).toMatchObject({ index: 0, line: 2 });
    expect(invalidUtf8Problem(Buffer.from('a: "\u00e9\ud83d\ude00\ufffd"\n'))).toBeUndefined();
  });
});
