/**
 * Kubernetes resource quantities (`500m`, `4Ti`, `1.5e3`), parsed into an exact value so that
 * limits compare numerically: `4096Gi` equals `4Ti`, `4097Gi` exceeds it, `1Gi` equals `1024Mi`.
 *
 * The accepted syntax and the rounding follow apimachinery's `ParseQuantity`, because the
 * admission rules we re-implement call it on plain strings (`resources.cpu`, `resources.memory`):
 *
 * - an optional sign, digits with an optional fraction (`1.`, `.5`, and even a bare `.` or sign,
 *   which the Go scanner reads as zero), then at most one suffix: binary `Ki Mi Gi Ti Pi Ei`,
 *   decimal `n u m k M G T P E`, or a decimal exponent `e<int>` / `E<int>`;
 * - non-zero values are rounded away from zero to a whole number of nano-units (`0.1n` is `1n`);
 * - values written with a binary suffix are capped at 2^63-1 (decimal ones are not).
 *
 * The stricter CRD pattern that the API server applies to `StorageVolume.size` is
 * {@link QUANTITY_PATTERN}.
 */

/** The OpenAPI pattern of `x-kubernetes-int-or-string` quantity fields (e.g. `size`). */
export const QUANTITY_PATTERN =
  /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

/** How the quantity was written, as apimachinery classifies it. */
export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/**
 * An exact quantity: `sign × mantissa × 10^exponent`. The mantissa has no trailing zeros (so
 * equal values have equal fields) and the exponent is never below -9 (nano precision).
 */
export interface Quantity {
  /** -1, 0 or 1. */
  readonly sign: number;
  /** Magnitude digits, without trailing zeros; `0n` for zero. */
  readonly mantissa: bigint;
  /** Power of ten applied to the mantissa; 0 for zero. */
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };
const NANO_EXPONENT = -9;
const INT32_MAX = 2 ** 31 - 1;
const BINARY_CAP = 2n ** 63n - 1n;
const SUFFIX_LETTERS = 'eEinumkKMGTP';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

interface Scanned {
  readonly negative: boolean;
  readonly whole: string;
  readonly fraction: string;
  readonly suffix: string;
}

/** The Go scanner: sign, leading zeros, digits, `.` digits, then a letter/sign/digit suffix. */
function scan(str: string): Scanned | undefined {
  let pos = 0;
  let negative = false;
  if (str[0] === '-' || str[0] === '+') {
    negative = str[0] === '-';
    pos++;
  }
  while (str[pos] === '0') pos++;
  let start = pos;
  while (isDigit(str[pos])) pos++;
  const whole = str.slice(start, pos);
  let fraction = '';
  if (str[pos] === '.') {
    pos++;
    start = pos;
    while (isDigit(str[pos])) pos++;
    fraction = str.slice(start, pos);
  }
  const suffixStart = pos;
  while (pos < str.length && SUFFIX_LETTERS.includes(str[pos])) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos !== str.length) return undefined;
  return { negative, whole, fraction, suffix: str.slice(suffixStart) };
}

/** Suffix → (base, exponent, format), or undefined for an unknown suffix. */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (suffix in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[suffix], format: 'BinarySI' };
  if (suffix in DECIMAL_SUFFIXES) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix], format: 'DecimalSI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    // Go truncates the parsed exponent to int32; anything that large is not a real quantity.
    if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > INT32_MAX) return undefined;
    return { base: 10, exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

function normalise(sign: number, mantissa: bigint, exponent: number, format: QuantityFormat): Quantity {
  if (mantissa === 0n) return { sign: 0, mantissa: 0n, exponent: 0, format };
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  return { sign, mantissa, exponent, format };
}

function digitCount(n: bigint): number {
  return n === 0n ? 0 : n.toString().length;
}

/** Rounds a positive `mantissa × 10^exponent` away from zero to nano precision. */
function roundUpToNano(mantissa: bigint, exponent: number): { mantissa: bigint; exponent: number } {
  if (mantissa === 0n || exponent >= NANO_EXPONENT) return { mantissa, exponent };
  const shift = NANO_EXPONENT - exponent;
  if (shift > digitCount(mantissa)) return { mantissa: 1n, exponent: NANO_EXPONENT };
  const divisor = 10n ** BigInt(shift);
  const quotient = mantissa / divisor;
  return { mantissa: mantissa % divisor === 0n ? quotient : quotient + 1n, exponent: NANO_EXPONENT };
}

/**
 * Parses a quantity the way apimachinery's `ParseQuantity` does. Numbers are accepted too,
 * because `size` is an int-or-string field. Returns undefined when Kubernetes would reject it.
 */
export function parseQuantity(input: string | number): Quantity | undefined {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    return parseQuantity(numberToPlainString(input));
  }
  if (input.length === 0) return undefined;
  const scanned = scan(input);
  if (!scanned) return undefined;
  const suffix = interpretSuffix(scanned.suffix);
  if (!suffix) return undefined;

  const digits = `${scanned.whole}${scanned.fraction}`.replace(/^0+/, '');
  let mantissa = digits === '' ? 0n : BigInt(digits);
  let exponent = -scanned.fraction.length;
  if (suffix.base === 10) exponent += suffix.exponent;
  else mantissa *= 2n ** BigInt(suffix.exponent);

  if (mantissa === 0n) return normalise(0, 0n, 0, suffix.format);
  const rounded = roundUpToNano(mantissa, exponent);
  mantissa = rounded.mantissa;
  exponent = rounded.exponent;

  if (suffix.base === 2 && compareMagnitudes(mantissa, exponent, BINARY_CAP, 0) > 0) {
    mantissa = BINARY_CAP;
    exponent = 0;
  }
  return normalise(scanned.negative ? -1 : 1, mantissa, exponent, suffix.format);
}

/** True when `input` matches the CRD pattern of quantity fields (stricter than ParseQuantity). */
export function matchesQuantityPattern(input: string | number): boolean {
  if (typeof input === 'number') return Number.isFinite(input) && QUANTITY_PATTERN.test(numberToPlainString(input));
  return QUANTITY_PATTERN.test(input);
}

/** `1e21` → `1000000000000000000000`, so JSON numbers parse like the integers they are. */
function numberToPlainString(n: number): string {
  if (Number.isInteger(n)) return BigInt(n).toString();
  return String(n);
}

/** Compares two non-negative `m × 10^e` values without building huge powers of ten. */
function compareMagnitudes(m1: bigint, e1: number, m2: bigint, e2: number): number {
  if (m1 === 0n || m2 === 0n) return m1 === m2 ? 0 : m1 === 0n ? -1 : 1;
  // The order of magnitude decides unless both have the same leading-digit position.
  const order1 = digitCount(m1) + e1;
  const order2 = digitCount(m2) + e2;
  if (order1 !== order2) return order1 < order2 ? -1 : 1;
  // Same order: the exponents differ by at most the mantissa lengths, so scaling is cheap.
  const common = Math.min(e1, e2);
  const a = m1 * 10n ** BigInt(e1 - common);
  const b = m2 * 10n ** BigInt(e2 - common);
  return a === b ? 0 : a < b ? -1 : 1;
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` (numerically). */
export function compareQuantities(a: Quantity, b: Quantity): number {
  if (a.sign !== b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign === 0) return 0;
  const magnitude = compareMagnitudes(a.mantissa, a.exponent, b.mantissa, b.exponent);
  return a.sign > 0 ? magnitude : -magnitude;
}

/** Numeric equality of two quantity strings (`1Gi` and `1024Mi` are equal); unparsable ≠ anything. */
export function quantitiesEqual(a: string | number, b: string | number): boolean {
  const qa = parseQuantity(a);
  const qb = parseQuantity(b);
  return qa !== undefined && qb !== undefined && compareQuantities(qa, qb) === 0;
}

/** The exact value in plain decimal notation, e.g. `4398046511104` for `4Ti`, `0.5` for `500m`. */
export function quantityToDecimalString(q: Quantity): string {
  if (q.sign === 0) return '0';
  const digits = q.mantissa.toString();
  let body: string;
  if (q.exponent >= 0) {
    body = digits + '0'.repeat(q.exponent);
  } else {
    const point = digits.length + q.exponent;
    body = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`;
  }
  return q.sign < 0 ? `-${body}` : body;
}

/** Decimal SI suffix of each power of ten that is a multiple of three. */
const SUFFIX_OF_EXPONENT: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));

/**
 * The spelling the API server stores a decimal quantity in (apimachinery's canonical form): an
 * integer and the largest SI suffix that keeps it an integer, so `0.8` is `800m`, `1000` is `1k`
 * and `1500` stays `1500`. Writing it so keeps what is applied equal to what is stored (a GitOps
 * diff shows no change the server made). Values finer than a nano are outside this spelling.
 */
export function canonicalDecimalQuantity(q: Quantity): string {
  if (q.sign === 0) return '0';
  const exponent = Math.min(Math.max(Math.floor(q.exponent / 3) * 3, NANO_EXPONENT), 18);
  const digits = q.mantissa * 10n ** BigInt(q.exponent - exponent);
  return `${q.sign < 0 ? '-' : ''}${digits}${SUFFIX_OF_EXPONENT[exponent]}`;
}
