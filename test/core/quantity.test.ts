import {
  canonicalDecimalQuantity,
  compareQuantities,
  matchesQuantityPattern,
  parseQuantity,
  quantitiesEqual,
  Quantity,
  quantityToDecimalString,
} from '../../src/core/quantity';

function q(s: string | number): Quantity {
  const parsed = parseQuantity(s);
  if (!parsed) throw new Error(`expected ${JSON.stringify(s)} to parse`);
  return parsed;
}

function value(s: string | number): string {
  return quantityToDecimalString(q(s));
}

describe('parseQuantity', () => {
  test.each([
    ['0', '0'],
    ['1', '1'],
    ['+7', '7'],
    ['-7', '-7'],
    ['007', '7'],
    ['1.5', '1.5'],
    ['.5', '0.5'],
    ['1.', '1'],
    ['500m', '0.5'],
    ['1n', '0.000000001'],
    ['250u', '0.00025'],
    ['1k', '1000'],
    ['2M', '2000000'],
    ['3G', '3000000000'],
    ['1T', '1000000000000'],
    ['1P', '1000000000000000'],
    ['1E', '1000000000000000000'],
    ['1Ki', '1024'],
    ['1Mi', '1048576'],
    ['1Gi', '1073741824'],
    ['4Ti', '4398046511104'],
    ['1Pi', '1125899906842624'],
    ['1Ei', '1152921504606846976'],
    ['1.5Gi', '1610612736'],
    ['0.5Ki', '512'],
    ['1e3', '1000'],
    ['1E3', '1000'],
    ['1e+3', '1000'],
    ['15e-1', '1.5'],
    ['2.5e2', '250'],
    ['1.G', '1000000000'],
  ])('parses %s as %s', (input, expected) => {
    expect(value(input)).toBe(expected);
  });

  test('accepts JSON numbers (size is int-or-string)', () => {
    expect(value(10)).toBe('10');
    expect(value(1.5)).toBe('1.5');
    expect(value(0)).toBe('0');
  });

  test('rounds sub-nano values away from zero, like apimachinery', () => {
    expect(value('0.1n')).toBe('0.000000001');
    expect(value('1.0000000001')).toBe('1.000000001');
    expect(value('-0.1n')).toBe('-0.000000001');
    expect(value('1e-20')).toBe('0.000000001');
  });

  test('caps binary-suffixed values at 2^63-1 but not decimal ones', () => {
    expect(value('16Ei')).toBe('9223372036854775807');
    expect(value('100E')).toBe('100000000000000000000');
  });

  test('reads a bare sign or point as zero, like the Go scanner', () => {
    expect(q('.').sign).toBe(0);
    expect(q('-').sign).toBe(0);
  });

  test.each(['', 'abc', '1K', '1ki', '5i', '1e', '1e1.5', '1Mi5', '1.5.5', ' 1', '1 ', '1Gi ', '--1', '1m+5', 'Inf'])(
    'fails when the quantity is %j',
    (input) => {
      expect(parseQuantity(input)).toBeUndefined();
    },
  );

  test('fails for non-finite numbers', () => {
    expect(parseQuantity(Number.NaN)).toBeUndefined();
    expect(parseQuantity(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  test('handles huge exponents without materialising them', () => {
    const huge = q('1e999999999');
    expect(huge.exponent).toBe(999999999);
    expect(compareQuantities(huge, q('4Ti'))).toBe(1);
    expect(compareQuantities(q('1e-999999999'), q('1n'))).toBe(0);
  });
});

describe('compareQuantities', () => {
  test('4096Gi equals 4Ti', () => {
    expect(compareQuantities(q('4096Gi'), q('4Ti'))).toBe(0);
  });

  test('4097Gi exceeds 4Ti', () => {
    expect(compareQuantities(q('4097Gi'), q('4Ti'))).toBe(1);
    expect(compareQuantities(q('4Ti'), q('4097Gi'))).toBe(-1);
  });

  test('1Gi equals 1024Mi and differs from 1G', () => {
    expect(compareQuantities(q('1Gi'), q('1024Mi'))).toBe(0);
    expect(compareQuantities(q('1G'), q('1Gi'))).toBe(-1);
  });

  test('decimal forms of the same value are equal', () => {
    expect(compareQuantities(q('512'), q('512000m'))).toBe(0);
    expect(compareQuantities(q('0.5'), q('500m'))).toBe(0);
    expect(compareQuantities(q('5e2'), q('500'))).toBe(0);
    expect(compareQuantities(q('1k'), q('1000'))).toBe(0);
  });

  test('orders across magnitudes and signs', () => {
    expect(compareQuantities(q('513'), q('512'))).toBe(1);
    expect(compareQuantities(q('512001m'), q('512'))).toBe(1);
    expect(compareQuantities(q('-1'), q('0'))).toBe(-1);
    expect(compareQuantities(q('-2'), q('-1'))).toBe(-1);
    expect(compareQuantities(q('0'), q('0m'))).toBe(0);
    expect(compareQuantities(q('999'), q('1k'))).toBe(-1);
    expect(compareQuantities(q('1Ei'), q('1E'))).toBe(1);
  });

  test('quantitiesEqual compares numerically and treats unparsable as unequal', () => {
    expect(quantitiesEqual('1Gi', '1024Mi')).toBe(true);
    expect(quantitiesEqual(10, '10')).toBe(true);
    expect(quantitiesEqual('10', '10Gi')).toBe(false);
    expect(quantitiesEqual('x', 'x')).toBe(false);
  });
});

describe('matchesQuantityPattern', () => {
  test.each(['200Gi', '1', '+1.5', '.5', '1e3', '1e1.5', 10])('accepts %j', (input) => {
    expect(matchesQuantityPattern(input)).toBe(true);
  });

  test.each(['', '.', '-', '1K', 'lots', '1Gi ', Number.NaN])('fails when the size is %j', (input) => {
    expect(matchesQuantityPattern(input)).toBe(false);
  });
});

describe('canonicalDecimalQuantity', () => {
  test.each([
    ['0.8', '800m'],
    ['0.75', '750m'],
    ['1.5', '1500m'],
    ['5', '5'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['2000000', '2M'],
    ['0.00001', '10u'],
    ['0.000000001', '1n'],
    ['0', '0'],
  ])('%s is stored as %s', (input, canonical) => {
    expect(canonicalDecimalQuantity(parseQuantity(input)!)).toBe(canonical);
    // The same value, respelled.
    expect(quantitiesEqual(input, canonical)).toBe(true);
  });
});
