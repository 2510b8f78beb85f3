/**
 * Kubernetes' CEL quantity library for @bufbuild/cel: `quantity(string)`, `isQuantity(string)`
 * and the methods of a `kubernetes.Quantity` — `sign`, `isInteger`, `asInteger`,
 * `asApproximateFloat`, `add`, `sub`, `compareTo`, `isGreaterThan`, `isLessThan` — with the
 * semantics the API server gives them (k8s.io/apiserver's CEL library), exact (no floating point)
 * through src/core/quantity.ts. CRD validation rules call it (Dynamo's `sharedMemory.size`), and
 * so do DRA device selectors (`device.capacity[...].compareTo(quantity("20Gi"))`).
 *
 * @bufbuild/cel types custom values by protobuf message: a quantity is a `kubernetes.Quantity`
 * message holding the text it was parsed from, declared here at run time.
 */
import type * as CelLib from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import type * as ProtobufWkt from '@bufbuild/protobuf/wkt';
import { kubernetesTextMessageRegistry } from './text-message';
import { compareQuantities, parseQuantity, Quantity, quantityToDecimalString } from '../core/quantity';

/** The CEL type name of a quantity, as Kubernetes names it. */
export const QUANTITY_TYPE_NAME = 'kubernetes.Quantity';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** What a CEL environment needs for the library: the message type and the functions. */
export interface CelQuantityLibrary {
  readonly registry: Protobuf.Registry;
  readonly funcs: CelLib.CelFunc[];
}

/** Builds the library on the loaded @bufbuild/cel and @bufbuild/protobuf. */
export function celQuantityLibrary(cel: typeof CelLib, protobuf: typeof Protobuf, wkt: typeof ProtobufWkt): CelQuantityLibrary {
  const registry = kubernetesTextMessageRegistry(protobuf, wkt, 'Quantity');
  const type = cel.objectType(QUANTITY_TYPE_NAME);
  const { STRING, BOOL, INT, DOUBLE } = cel.CelScalar;

  const desc = registry.getMessage(QUANTITY_TYPE_NAME)!;
  const make = (q: Quantity): Protobuf.Message => protobuf.create(desc, { value: quantityToDecimalString(q) } as any);
  const parse = (text: string): Quantity => {
    const q = parseQuantity(text);
    if (!q) throw new Error(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(text)}`);
    return q;
  };
  const of = (value: unknown): Quantity => parse(textOf(value));
  const exact = (q: Quantity): { value: bigint; exponent: number } => ({ value: BigInt(q.sign) * q.mantissa, exponent: q.exponent });
  const combine = (a: Quantity, b: Quantity, sign: 1 | -1): Quantity => {
    const x = exact(a);
    const y = exact(b);
    const e = Math.min(x.exponent, y.exponent);
    const sum = x.value * 10n ** BigInt(x.exponent - e) + BigInt(sign) * y.value * 10n ** BigInt(y.exponent - e);
    return parse(`${sum}e${e}`);
  };
  const integer = (q: Quantity): bigint | undefined => {
    if (q.exponent < 0) return undefined;
    const v = BigInt(q.sign) * q.mantissa * 10n ** BigInt(q.exponent);
    return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
  };

  const funcs = [
    cel.celFunc('quantity', [STRING], type, (s) => make(parse(s)) as any),
    cel.celFunc('isQuantity', [STRING], BOOL, (s) => parseQuantity(s) !== undefined),
    cel.celMethod('sign', type, [], INT, function () {
      return BigInt(of(this).sign);
    }),
    cel.celMethod('isInteger', type, [], BOOL, function () {
      return integer(of(this)) !== undefined;
    }),
    cel.celMethod('asInteger', type, [], INT, function () {
      const v = integer(of(this));
      if (v === undefined) throw new Error('cannot convert value to integer');
      return v;
    }),
    cel.celMethod('asApproximateFloat', type, [], DOUBLE, function () {
      return Number(quantityToDecimalString(of(this)));
    }),
    cel.celMethod('add', type, [type], type, function (other) {
      return make(combine(of(this), of(other), 1)) as any;
    }),
    cel.celMethod('add', type, [INT], type, function (n) {
      return make(combine(of(this), parse(String(n)), 1)) as any;
    }),
    cel.celMethod('sub', type, [type], type, function (other) {
      return make(combine(of(this), of(other), -1)) as any;
    }),
    cel.celMethod('sub', type, [INT], type, function (n) {
      return make(combine(of(this), parse(String(n)), -1)) as any;
    }),
    cel.celMethod('compareTo', type, [type], INT, function (other) {
      return BigInt(compareQuantities(of(this), of(other)));
    }),
    cel.celMethod('isGreaterThan', type, [type], BOOL, function (other) {
      return compareQuantities(of(this), of(other)) > 0;
    }),
    cel.celMethod('isLessThan', type, [type], BOOL, function (other) {
      return compareQuantities(of(this), of(other)) < 0;
    }),
  ];
  return { registry, funcs };
}

/** The text a `kubernetes.Quantity` holds, whether CEL hands over the message reflected or as it is. */
function textOf(message: any): string {
  return String(typeof message?.get === 'function' ? message.get(message.desc.fields[0]) : message?.value);
}
