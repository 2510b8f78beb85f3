import { OwnWriteEchoes } from '../../../src/controller/runtime/own-write-echoes';

describe('OwnWriteEchoes', () => {
  test('the echo arriving after the answer is held once; later events pass', () => {
    const e = new OwnWriteEchoes();
    e.patching('ml/a');
    expect(e.patched('ml/a', '7')).toBe(false);
    expect(e.holds('ml/a', '7')).toBe(true);
    expect(e.holds('ml/a', '7')).toBe(false);
    expect(e.holds('ml/a', '8')).toBe(false);
  });

  test('the echo arriving before the answer is held, and nothing more is asked', () => {
    const e = new OwnWriteEchoes();
    e.patching('ml/a');
    expect(e.holds('ml/a', '7')).toBe(true);
    expect(e.patched('ml/a', '7')).toBe(false);
    // Not awaited any more: a relist delivering version 7 again is an event like any other.
    expect(e.holds('ml/a', '7')).toBe(false);
  });

  test('another version seen while the patch was in flight asks for a reconcile', () => {
    const e = new OwnWriteEchoes();
    e.patching('ml/a');
    expect(e.holds('ml/a', '7')).toBe(true);
    expect(e.holds('ml/a', '8')).toBe(true);
    expect(e.patched('ml/a', '7')).toBe(true);
    // Someone else's change first, then the echo, which is still awaited.
    e.patching('ml/a');
    expect(e.holds('ml/a', '9')).toBe(true);
    expect(e.patched('ml/a', '10')).toBe(true);
    expect(e.holds('ml/a', '10')).toBe(true);
  });

  test('a failed patch asks for a reconcile only when an event was held', () => {
    const e = new OwnWriteEchoes();
    e.patching('ml/a');
    expect(e.patched('ml/a', undefined)).toBe(false);
    e.patching('ml/a');
    expect(e.holds('ml/a', '8')).toBe(true);
    expect(e.patched('ml/a', undefined)).toBe(true);
    expect(e.holds('ml/a', '9')).toBe(false);
  });

  test('records are independent, and a forgotten record holds nothing', () => {
    const e = new OwnWriteEchoes();
    e.patching('ml/a');
    expect(e.holds('ml/b', '3')).toBe(false);
    e.forget('ml/a');
    expect(e.holds('ml/a', '3')).toBe(false);
    e.patching('ml/b');
    e.patched('ml/b', '4');
    e.forget('ml/b');
    expect(e.holds('ml/b', '4')).toBe(false);
  });
});
