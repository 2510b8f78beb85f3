import * as cel from '@bufbuild/cel';
import * as protobuf from '@bufbuild/protobuf';
import * as wkt from '@bufbuild/protobuf/wkt';
import { celQuantityLibrary } from '../../src/cel/quantity';

const library = celQuantityLibrary(cel, protobuf, wkt);

/** Evaluates a CEL expression with the quantity library, as plain JS (errors as `{ error }`). */
function evaluate(expr: string): unknown {
  const value = cel.run(expr, {}, { funcs: library.funcs, registry: library.registry });
  return cel.isCelError(value) ? { error: value.message } : value;
}

describe("Kubernetes' CEL quantity library", () => {
  test.each([
    ["quantity('1Gi').compareTo(quantity('1024Mi'))", 0n],
    ["quantity('1Gi').compareTo(quantity('1G'))", 1n],
    ["quantity('500m').compareTo(quantity('0.5'))", 0n],
    ["quantity('-1').compareTo(quantity('0'))", -1n],
    ["quantity('80Gi').isGreaterThan(quantity('20Gi'))", true],
    ["quantity('0').isGreaterThan(quantity('0'))", false],
    ["quantity('1k').isLessThan(quantity('1Ki'))", true],
    ["quantity('-5').sign()", -1n],
    ["quantity('0').sign()", 0n],
    ["quantity('2Ki').sign()", 1n],
    ["quantity('2Ki').isInteger()", true],
    ["quantity('1500m').isInteger()", false],
    ["quantity('10E').isInteger()", false], // 10^19 is beyond int64
    ["quantity('2Ki').asInteger()", 2048n],
    ["quantity('1500m').asApproximateFloat()", 1.5],
    ["quantity('1Gi').add(quantity('512Mi')).compareTo(quantity('1.5Gi'))", 0n],
    ["quantity('1').add(2).asInteger()", 3n],
    ["quantity('1Gi').sub(quantity('1Gi')).sign()", 0n],
    ["quantity('100m').sub(1).compareTo(quantity('-900m'))", 0n],
    ["isQuantity('20Gi')", true],
    ["isQuantity('20 Gi')", false],
    ["isQuantity('')", false],
  ])('%s is %p', (expr, expected) => {
    expect(evaluate(expr)).toEqual(expected);
  });

  test.each([
    ["quantity('twenty')", /quantities must match the regular expression/],
    ["quantity('1500m').asInteger()", /cannot convert value to integer/],
    ["quantity('10E').asInteger()", /cannot convert value to integer/],
  ])('%s is an error', (expr, message) => {
    expect(evaluate(expr)).toEqual({ error: expect.stringMatching(message) });
  });
});
