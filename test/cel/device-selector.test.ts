import { checkDeviceSelector } from '../../src/cel/device-selector';
import { DEVICE_SELECTOR_LENGTH } from '../../src/cel/parse';

const SELECTOR_MAX_BYTES = DEVICE_SELECTOR_LENGTH.limit;

/** The first error, without the formatted text (asserted separately). */
function firstError(expression: string) {
  const errors = checkDeviceSelector(expression);
  expect(errors.length).toBeGreaterThan(0);
  const { message, line, column, offset } = errors[0];
  return { message, line, column, offset };
}

describe('checkDeviceSelector: selectors Kubernetes accepts', () => {
  test.each([
    // The selectors of the task, as users write them for NVIDIA and example drivers.
    'device.driver == "gpu.nvidia.com"',
    'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"',
    'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
    'device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0"))',
    '"gpu.nvidia.com" in device.attributes',
    'has(device.attributes["gpu.nvidia.com"].cudaComputeCapability)',
    'device.attributes["dra.example.com"].model.startsWith("A")',
    // The example of the API reference: cel.bind is enabled.
    'cel.bind(dra, device.attributes["dra.example.com"], dra.someBool && dra.anotherBool)',
    // A bool attribute on its own: dyn, checked when evaluated.
    'device.attributes["gpu.nvidia.com"].healthy',
    'device.capacity["gpu.nvidia.com"].memory.isGreaterThan(quantity("20Gi")) && device.capacity["gpu.nvidia.com"].memory.isLessThan(quantity("100Gi"))',
    'device.attributes["gpu.nvidia.com"].index < 4 && device.attributes["gpu.nvidia.com"].index + 1 > 0',
    'device.attributes["gpu.nvidia.com"].cudaComputeCapability.compareTo(semver("8.0.0")) >= 0',
    'device.attributes["gpu.nvidia.com"].driverVersion == semver("550.54.15")',
    'device.attributes.gpu.model == "x"', // a domain without dots may be selected as a field
    // Macros, over the device and over literals.
    'device.attributes.exists(d, d.startsWith("gpu"))',
    'device.attributes["gpu.nvidia.com"].exists(name, name == "index")',
    '[1, 2].map(x, x * 2).exists(y, y == 4)',
    '[1, 2].filter(x, x > 1).size() == 1 && [1].exists_one(x, x == 1) && [1].all(x, x > 0)',
    '[1].map(x, x > 0, x * 2)[0] == 2',
    // The standard library and the strings extension.
    'size(device.attributes) > 0 && device.attributes.size() > 0',
    'device.driver in ["gpu.nvidia.com", "gpu.amd.com"]',
    'device.driver.matches("^gpu\\\\.") && matches(device.driver, "nvidia")',
    'device.driver.contains("nvidia") || device.driver.endsWith(".com")',
    'device.driver.split(".").size() == 3 && device.driver.split(".")[0] == "gpu"',
    'device.driver.lowerAscii().upperAscii().trim().charAt(0) == "G" && device.driver.indexOf(".") > 0',
    'device.driver.lastIndexOf(".", 5) >= -1 && device.driver.substring(1, 2) != "" && device.driver.replace("a", "b", 1) != ""',
    '["a", "b"].join("-") == "a-b" && "%s".format([device.driver]) != "" && strings.quote(device.driver) != ""',
    'int("1") == 1 && double(1) == 1.0 && string(1) == "1" && uint(1) == 1u && bytes("a") == b"a" && bool("true")',
    '1 < 2.0 && 1u < 2 && 2.0 > 1u', // cross-type numeric comparisons
    'duration("1s") < duration("2s") && timestamp("2024-01-01T00:00:00Z").getFullYear() == 2024',
    'type(1) == int && type(device.driver) == string',
    'dyn(1) == "a"',
    'device.attributes["x"].y == null',
    '[].size() == 0 && {}.size() == 0 && (true ? [] : [1]).size() == 0',
    '{1: "a", "b": 2}.size() == 2', // mixed literals are dyn
    // Kubernetes' quantity and semver libraries.
    'quantity("1").add(1).sub(quantity("1")).asInteger() == 1 && isQuantity("1")',
    'quantity("1.5").isInteger() || quantity("1.5").asApproximateFloat() > 1.0',
    'semver("1.0.0").major() == 1 && isSemver("1.0.0", true) && semver("v1", true).compareTo(semver("1.0.0")) == 0',
    'semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3 && semver("1.0.0").isLessThan(semver("2.0.0"))',
    // Layout: comments, new lines, tabs.
    '// pick NVIDIA GPUs\ndevice.driver == "gpu.nvidia.com" &&\n\tdevice.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0',
  ])('accepts %s', (expression) => {
    expect(checkDeviceSelector(expression)).toEqual([]);
  });
});

describe('checkDeviceSelector: type errors, with the position of the failing sub-expression', () => {
  test.each([
    ['fails when a variable is undeclared', 'gpu.memory > 1', "undeclared reference to 'gpu'", 1, 1],
    ['fails when a CRD rule variable is used', 'self.driver == "a"', "undeclared reference to 'self' (a device selector's variable is 'device')", 1, 1],
    ['fails when device has no such field', 'device.driver == "a" &&\n  device.atributes["a"].x == 1',
      "undefined field 'atributes' (a device has driver, attributes, capacity)", 2, 10],
    // Kubernetes 1.35 declares it only behind the alpha DRAConsumableCapacity gate.
    ['fails on allowMultipleAllocations, which a default API server does not declare', 'device.allowMultipleAllocations',
      "undefined field 'allowMultipleAllocations' (a device has driver, attributes, capacity)", 1, 8],
    ['fails on sign(), which the API server does not declare for selectors', 'quantity("1").sign() == 1',
      "unknown method 'sign'", 1, 15],
    ['fails when has() names an unknown field', 'has(device.foo)', "undefined field 'foo' (a device has driver, attributes, capacity)", 1, 12],
    ['fails when quantity() gets an int', 'quantity(5)', "found no matching overload for 'quantity' applied to '(int)'; expected quantity(string)", 1, 1],
    ['fails when a string is compared with an int', 'device.driver > 3', "found no matching overload for '_>_' applied to '(string, int)'", 1, 15],
    ['fails when compareTo gets a string', 'device.capacity["x"].memory.compareTo("20Gi") >= 0',
      "found no matching overload for 'compareTo' applied to 'kubernetes.Quantity.(string)'; expected kubernetes.Quantity.compareTo(kubernetes.Quantity)", 1, 29],
    ['fails when a quantity is compared with a semver', 'device.capacity["gpu.nvidia.com"].memory.isGreaterThan(semver("1.0.0"))',
      "found no matching overload for 'isGreaterThan' applied to 'kubernetes.Quantity.(kubernetes.Semver)'; expected kubernetes.Quantity.isGreaterThan(kubernetes.Quantity)", 1, 42],
    ['fails when a dyn attribute gets an argument no overload takes', 'device.attributes["a"].v.isGreaterThan("1.0.0")',
      "found no matching overload for 'isGreaterThan' applied to 'dyn.(string)'; expected kubernetes.Quantity.isGreaterThan(kubernetes.Quantity) or kubernetes.Semver.isGreaterThan(kubernetes.Semver)", 1, 26],
    ['fails when quantities are compared with >', 'device.capacity["x"].memory > quantity("1")',
      "found no matching overload for '_>_' applied to '(kubernetes.Quantity, kubernetes.Quantity)'", 1, 29],
    ['fails when a domain is not a string', 'device.attributes[1].x == 1', "found no matching overload for '_[_]' applied to '(map(string, map(string, dyn)), int)'", 1, 18],
    ['fails when ints and doubles are compared for equality', '1 == 1.0', "found no matching overload for '_==_' applied to '(int, double)'", 1, 3],
    ['fails when a function is unknown', 'device.driver == "a" && foo(1)', "unknown function 'foo'", 1, 25],
    ['fails when a method is unknown', 'device.driver.frob()', "unknown method 'frob'", 1, 15],
    ['fails when a method is called as a function', 'startsWith("a")', "unknown function 'startsWith': 'startsWith' is a method, call it as x.startsWith(...)", 1, 1],
    ['fails when a function is called as a method', 'device.driver.quantity()', "unknown method 'quantity': 'quantity' is a function, call it as quantity(...)", 1, 15],
    ['fails when the result is a string', 'device.driver', 'a device selector must evaluate to bool, not string', 1, 1],
    ['fails when the result is an int', '  // the size\n  device.driver.size() + 1', 'a device selector must evaluate to bool, not int', 2, 3],
    ['fails when && gets an int', '1 && device.driver == "x"', "expected type 'bool' but found 'int'", 1, 1],
    ['fails when a macro predicate is not a bool', '[1, 2].all(x, x + 1)', "expected type 'bool' but found 'int'", 1, 17],
    ['fails when a comprehension ranges over a string', '"abc".all(c, true)', "expression of type 'string' cannot be the range of a comprehension (must be list, map, or dynamic)", 1, 1],
    ['fails when the branches of ?: differ', '(true ? [1] : ["a"]).size() == 0', "found no matching overload for '_?_:_' applied to '(bool, list(int), list(string))'", 1, 2],
    ['fails when a quantity field is selected', 'device.capacity["x"].memory.value == "1"', "type 'kubernetes.Quantity' does not support field selection", 1, 29],
    ['fails when has() selects from a string', 'has(device.driver.x)', "type 'string' does not support field selection", 1, 19],
    ['fails when a map key is a list', '{[1]: 2}.size() == 1', "unsupported map key type 'list(int)' (map keys are int, uint, bool or string)", 1, 2],
    ['fails when an object is constructed', 'ns.Msg{f: 1}', "unknown type 'ns.Msg': device selectors cannot construct objects", 1, 1],
    ['fails when cel.bind lacks an argument', 'cel.bind(x, 1)', 'cel.bind() takes 3 arguments (a variable name, its value, an expression), not 2', 1, 4],
    ['fails when cel.bind binds no name', 'cel.bind(1, 2, 3)', 'the first argument of cel.bind() must be a simple variable name', 1, 10],
    ['fails when a bound variable is misused', 'cel.bind(x, 1, x == "a")', "found no matching overload for '_==_' applied to '(int, string)'", 1, 18],
  ])('%s: %s', (_name, expression, message, line, column) => {
    const error = firstError(expression as string);
    expect(error).toEqual({ message, line, column, offset: expect.any(Number) });
  });

  test('the offset is the index of the failing sub-expression in the string', () => {
    const expression = 'device.driver == "a" &&\n  device.atributes["a"].x == 1';
    expect(firstError(expression).offset).toBe(expression.indexOf('atributes'));
  });

  test('the formatted message quotes the line and points at the column', () => {
    expect(checkDeviceSelector('device.capacity["gpu.nvidia.com"].memory.compareTo("20Gi") >= 0')[0].formatted).toBe([
      "<input>:1:42: found no matching overload for 'compareTo' applied to 'kubernetes.Quantity.(string)'; expected kubernetes.Quantity.compareTo(kubernetes.Quantity)",
      ' | device.capacity["gpu.nvidia.com"].memory.compareTo("20Gi") >= 0',
      ' | .........................................^',
    ].join('\n'));
    expect(checkDeviceSelector('device.driver ==\n\t"a" && foo(\n  1)')[0].formatted).toBe([
      "<input>:2:9: unknown function 'foo'",
      ' | \t"a" && foo(',
      ' | \t.......^',
    ].join('\n'));
  });

  test('one mistake is reported once, not again by every expression around it', () => {
    expect(checkDeviceSelector('-device.driver == 1 && self.x == "a" || b"x" + "y" == "z"').map((e) => e.message)).toEqual([
      "found no matching overload for '-_' applied to '(string)'",
      "undeclared reference to 'self' (a device selector's variable is 'device')",
      "found no matching overload for '_+_' applied to '(bytes, string)'",
    ]);
    // A call on, or with, an operand that failed adds nothing (it used to add an overload error on '*error*').
    expect(checkDeviceSelector('sets.contains(["a"], ["a"]) && gpu.startsWith("x")').map((e) => e.message)).toEqual([
      "undeclared reference to 'sets'",
      "undeclared reference to 'gpu'",
    ]);
  });

  test('at most 20 errors are reported', () => {
    const expression = Array.from({ length: 50 }, (_, i) => `x${i}`).join(' && ');
    const errors = checkDeviceSelector(expression);
    expect(errors).toHaveLength(20);
    expect(errors[19].message).toBe("undeclared reference to 'x19'");
  });
});

describe('checkDeviceSelector: syntax errors', () => {
  test.each([
    ['fails when an operand is missing', '1 +', 'syntax error: found + but expecting end of input', 1, 3, 2],
    ['fails when a parenthesis is not closed', '(device.driver == "a"', "syntax error: found end of input but expecting ')'", 1, 22, 21],
    ['fails when a parenthesis is not opened', 'device.driver == "a" )', 'syntax error: found ) but expecting end of input', 1, 22, 21],
    ['fails when a field name is missing', 'device..driver == "a"', 'syntax error: found . but expecting end of input', 1, 7, 6],
    ['fails on the line where the error is', 'device.driver == "a"\n  && device.driver =', 'syntax error: found = but expecting end of input', 2, 20, 40],
    ['fails when a string is not terminated', 'device.driver == "abc', 'syntax error: unterminated string literal', 1, 18, 17],
    ['fails when a string ends at the line', 'device.driver == \'a\' && device.driver == "abc\n"', 'syntax error: unterminated string literal', 1, 42, 41],
    ['fails on a reserved word', 'in', 'syntax error: reserved identifier', 1, 1, 0],
  ])('%s: %s', (_name, expression, message, line, column, offset) => {
    expect(firstError(expression as string)).toEqual({ message, line, column, offset });
  });

  test('the formatted message of a syntax error', () => {
    expect(checkDeviceSelector('device.driver == "abc')[0].formatted).toBe([
      '<input>:1:18: syntax error: unterminated string literal',
      ' | device.driver == "abc',
      ' | .................^',
    ].join('\n'));
  });
});

describe('checkDeviceSelector: hostile input is an error, never a crash or a hang', () => {
  test.each([
    ['fails when the expression is empty', '', 'the expression is empty'],
    ['fails when the expression is blank', ' \n\t ', 'the expression is empty'],
  ])('%s', (_name, expression, message) => {
    expect(firstError(expression)).toEqual({ message, line: 1, column: 1, offset: 0 });
  });

  test('fails when the expression is not a string', () => {
    expect(firstError(null as unknown as string).message).toBe('a device selector must be a string, not null');
    expect(firstError(42 as unknown as string).message).toBe('a device selector must be a string, not number');
  });

  test('10 KiB is allowed; one byte more fails at the byte that is too many', () => {
    const head = 'device.driver == "';
    const fits = `${head}${'a'.repeat(SELECTOR_MAX_BYTES - head.length - 1)}"`;
    expect(Buffer.byteLength(fits)).toBe(10240);
    expect(checkDeviceSelector(fits)).toEqual([]);
    const over = `${head}${'a'.repeat(SELECTOR_MAX_BYTES - head.length)}"`;
    expect(firstError(over)).toEqual({ message: 'the expression is 10241 bytes long; Kubernetes allows at most 10240 (10 Ki)', line: 1, column: 10241, offset: 10240 });
  });

  test('the limit counts UTF-8 bytes, as Kubernetes does', () => {
    const expression = `device.driver == "${'é'.repeat(6000)}"`; // 6019 characters, 12019 bytes
    const error = firstError(expression);
    expect(error.message).toBe('the expression is 12019 bytes long; Kubernetes allows at most 10240 (10 Ki)');
    // 18 one-byte characters, then two bytes each: the 5112th é ends at byte 10242.
    expect(error.offset).toBe(18 + 5111);
  });

  test('a megabyte of input fails fast on its length', () => {
    const start = Date.now();
    expect(firstError('('.repeat(1_048_576)).message).toBe('the expression is 1048576 bytes long; Kubernetes allows at most 10240 (10 Ki)');
    expect(Date.now() - start).toBeLessThan(1000);
  });

  test('brackets may nest 100 levels deep, not more', () => {
    expect(checkDeviceSelector(`${'('.repeat(100)}true${')'.repeat(100)}`)).toEqual([]);
    expect(firstError(`${'('.repeat(101)}true${')'.repeat(101)}`)).toEqual({ message: 'brackets nest more than 100 levels deep', line: 1, column: 101, offset: 100 });
    // Unclosed, mixed nesting is what makes the parser slow: refused before parsing.
    expect(firstError('[{1: ('.repeat(1000)).message).toBe('brackets nest more than 100 levels deep');
    expect(firstError('f('.repeat(5000)).message).toBe('brackets nest more than 100 levels deep');
  });

  test('brackets in string literals and comments do not count', () => {
    expect(checkDeviceSelector(`device.driver == "${'('.repeat(500)}" && device.driver != '''${'['.repeat(500)}''' // ${'{'.repeat(500)}`)).toEqual([]);
    expect(checkDeviceSelector(`device.driver != r"\\" && ${'('.repeat(50)}true${')'.repeat(50)}`)).toEqual([]);
  });

  test('unclosed nesting within the limit is a syntax error, quickly', () => {
    const start = Date.now();
    expect(firstError('[{1: ('.repeat(33)).message).toMatch(/^syntax error: found end of input but expecting/);
    expect(firstError('('.repeat(100)).message).toMatch(/^syntax error: found end of input but expecting/);
    expect(Date.now() - start).toBeLessThan(3000);
  });

  test('the parsed expression may be 250 levels deep, not more', () => {
    // `>` is level 1, the last `+` level 2, ..., the first `+` level 247, then size(), .driver, device.
    expect(checkDeviceSelector(`device.driver.size()${' + 1'.repeat(246)} > 0`)).toEqual([]);
    // With 300, the 51st `+` from the left is the first node at level 251.
    const error = firstError(`device.driver.size()${' + 1'.repeat(300)} > 0`);
    expect(error).toEqual({ message: 'the expression is nested more than 250 levels deep', line: 1, column: 20 + 4 * 50 + 2, offset: 20 + 4 * 50 + 1 });
    expect(firstError(`device${'.a'.repeat(3000)} == 1`).message).toBe('the expression is nested more than 250 levels deep');
    // Pairs of ! cancel out, as in CEL's parser: ten thousand of them are no depth at all.
    expect(checkDeviceSelector(`${'!'.repeat(10_000)}true`)).toEqual([]);
  });

  test('a long chain of && is balanced by the parser and accepted', () => {
    const expression = Array.from({ length: 700 }, () => 'device.driver != ""').join(' && ').slice(0, 10_240);
    expect(checkDeviceSelector(expression.slice(0, expression.lastIndexOf(' && ')))).toEqual([]);
  });

  test('NUL characters: a syntax error outside strings, shown escaped; inside a string literal, a character', () => {
    const error = checkDeviceSelector('device.driver == "a"\u0000')[0];
    expect(error.message).toBe('syntax error: found \\u0000 but expecting end of input');
    expect(error.formatted).toBe([
      '<input>:1:21: syntax error: found \\u0000 but expecting end of input',
      ' | device.driver == "a"\u2400',
      ' | ....................^',
    ].join('\n'));
    expect(checkDeviceSelector('device.driver == "a\u0000b"')).toEqual([]);
    expect(firstError('\u0000\u0000\u0000').line).toBe(1);
  });

  test('lone surrogates and other odd characters do not crash the check', () => {
    expect(checkDeviceSelector('device.driver == "\ud800"')).toEqual([]);
    expect(firstError('device.driver == \ud800').message).toMatch(/^syntax error: /);
    expect(firstError('\ufeffdevice.driver == "a"').message).toMatch(/^syntax error: /);
  });

  test('columns count characters, not UTF-16 units', () => {
    expect(firstError('"😀" == device.driver && foo')).toEqual({ message: "undeclared reference to 'foo'", line: 1, column: 25, offset: 25 });
  });

  test('lines end at \\n, \\r\\n or \\r', () => {
    expect(firstError('device.driver == "a" \r\n&& foo')).toMatchObject({ line: 2, column: 4 });
    expect(firstError('device.driver == "a" \r&& foo')).toMatchObject({ line: 2, column: 4 });
  });
});
