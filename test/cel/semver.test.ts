import * as cel from '@bufbuild/cel';
import * as protobuf from '@bufbuild/protobuf';
import * as wkt from '@bufbuild/protobuf/wkt';
import { celSemverLibrary, compareSemver, parseSemver, semverText } from '../../src/cel/semver';

const library = celSemverLibrary(cel, protobuf, wkt);

/** Evaluates a CEL expression with the semver library, as plain JS (errors as `{ error }`). */
function evaluate(expr: string): unknown {
  const value = cel.run(expr, {}, { funcs: library.funcs, registry: library.registry });
  return cel.isCelError(value) ? { error: value.message } : value;
}

describe("Kubernetes' CEL semver library", () => {
  test.each([
    ["semver('1.2.3').major()", 1n],
    ["semver('1.2.3').minor()", 2n],
    ["semver('1.2.3').patch()", 3n],
    ["semver('1.2.3-rc.1+build.5').patch()", 3n],
    ["semver('1.2.3').compareTo(semver('1.2.3'))", 0n],
    ["semver('1.2.3').compareTo(semver('1.10.0'))", -1n],
    ["semver('2.0.0').compareTo(semver('1.99.99'))", 1n],
    ["semver('550.54.15').isGreaterThan(semver('550.0.0'))", true],
    ["semver('1.0.0').isLessThan(semver('1.0.0'))", false],
    // semver.org §11: a pre-release ranks below its release; numeric identifiers below alphanumeric.
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", true],
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))", true],
    ["semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", true],
    ["semver('1.0.0-beta.2').isLessThan(semver('1.0.0-beta.11'))", true],
    ["semver('1.0.0-rc.1').isLessThan(semver('1.0.0-rc.1'))", false],
    // Build metadata never counts, in comparisons or in ==.
    ["semver('1.0.0+a').compareTo(semver('1.0.0+b'))", 0n],
    ["semver('1.0.0+a') == semver('1.0.0+b')", true],
    ["semver('1.0.0') == semver('1.0.1')", false],
    ["semver('18446744073709551615.0.0').minor()", 0n],
    ["isSemver('1.2.3')", true],
    ["isSemver('1.2.3-0.3.7')", true],
    ["isSemver('1.2.3-x-y-z.--')", true],
    ["isSemver('1.0.0+0017')", true], // leading zeros are fine in build metadata
    ["isSemver('v1.2.3')", false],
    ["isSemver('1.2')", false],
    ["isSemver('01.2.3')", false],
    ["isSemver('1.2.3-01')", false],
    ["isSemver('1.2.3-')", false],
    ["isSemver('1.2.3+')", false],
    ["isSemver('1.2.3-a..b')", false],
    ["isSemver('1.2.3.4')", false],
    ["isSemver(' 1.2.3')", false],
    ["isSemver('1.2.3\\n')", false],
    ["isSemver('')", false],
    ["isSemver('18446744073709551616.0.0')", false], // beyond uint64
    // Normalizing: a leading v, missing minor/patch and leading zeros are forgiven.
    ["isSemver('v1.2.3', true)", true],
    ["isSemver('1.2', true)", true],
    ["isSemver('01.02.03', true)", true],
    ["isSemver('1.2', false)", false],
    ["isSemver('V1.2.3', true)", false],
    ["isSemver('v', true)", false],
    ["isSemver('1.2.3.4', true)", false],
    ["isSemver('1.2.3-01', true)", false], // pre-release identifiers are not normalized
    ["semver('v1.0', true) == semver('1.0.0')", true],
    ["semver('01.01.01', true) == semver('1.1.1')", true],
    ["semver('v2', true).compareTo(semver('2.0.0'))", 0n],
    ["semver('1-rc.1', true) == semver('1.0.0-rc.1')", true],
    ["semver('1.2+build', true).minor()", 2n],
    ["semver('1.2.3', false).patch()", 3n],
  ])('%s is %p', (expr, expected) => {
    expect(evaluate(expr)).toEqual(expected);
  });

  test.each([
    ["semver('1.2')", 'invalid semver "1.2": expected MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD] as semver.org 2.0.0 defines'],
    ["semver('v1.2.3')", 'invalid semver "v1.2.3": expected MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD] as semver.org 2.0.0 defines'],
    ["semver('1.2.3.4', true)", 'invalid semver "1.2.3.4": expected MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD] as semver.org 2.0.0 defines (after normalizing)'],
    ["semver('18446744073709551615.0.0').major()", 'semver component 18446744073709551615 does not fit in an int'],
  ])('%s is an error', (expr, message) => {
    expect(evaluate(expr)).toEqual({ error: expect.stringContaining(message) });
  });

  test('an expression mixing quantity-style calls on a semver is not evaluated', () => {
    expect(evaluate("semver('1.2.3').compareTo('1.2.3')")).toEqual({ error: expect.stringMatching(/no matching overload|unbound/) });
  });
});

describe('semver helpers', () => {
  test('parse, compare and print without build metadata', () => {
    const v = parseSemver('1.2.3-rc.1+build.7')!;
    expect(v).toEqual({ major: 1n, minor: 2n, patch: 3n, prerelease: ['rc', '1'], build: ['build', '7'] });
    expect(semverText(v)).toBe('1.2.3-rc.1');
    const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '2.0.0'];
    const parsed = order.map((s) => parseSemver(s)!);
    for (let i = 0; i < parsed.length; i++) {
      for (let j = 0; j < parsed.length; j++) {
        expect(compareSemver(parsed[i], parsed[j])).toBe(Math.sign(i - j));
      }
    }
  });
});
