import { DeviceDescription, evaluateDeviceSelector } from '../../src/dra/device-evaluation';

const H100: DeviceDescription = {
  driver: 'gpu.nvidia.com',
  attributes: {
    'productName': 'NVIDIA H100 80GB HBM3',
    'driverVersion': { version: '550.54.15' },
    'cudaComputeCapability': { version: '9.0.0' },
    'index': 0,
    'healthy': true,
    'dra.example.com/model': 'A100',
  },
  capacity: { 'memory': '80Gi', 'dra.example.com/slots': 4 },
};

const L4: DeviceDescription = {
  driver: 'gpu.nvidia.com',
  attributes: { productName: 'NVIDIA L4', driverVersion: { version: '535.104.5' }, index: 1, healthy: false },
  capacity: { memory: '24Gi' },
};

const EXAMPLE: DeviceDescription = { driver: 'dra.example.com', attributes: { model: 'B200' } };

/** `{ matches }` for a boolean, `{ error }` for a message. */
const outcome = (expected: boolean | string) => (typeof expected === 'boolean' ? { matches: expected } : { error: expected });

describe('evaluateDeviceSelector', () => {
  // Each selector against the three devices: true, false, or the error that aborts allocation
  // (a selector reading an attribute a device lacks fails on that device, as Kubernetes warns).
  test.each([
    ['device.driver == "gpu.nvidia.com"', true, true, false],
    ['device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"', true, false, 'no such key: productName'],
    ['device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0', true, false, 'no such key: memory'],
    ['device.capacity["gpu.nvidia.com"].memory == quantity("80Gi")', true, false, 'no such key: memory'],
    ['device.capacity["gpu.nvidia.com"].memory == quantity("81920Mi")', true, false, 'no such key: memory'],
    ['has(device.capacity["dra.example.com"].slots) && device.capacity["dra.example.com"].slots.isGreaterThan(quantity("3"))', true, false, false],
    ['device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0"))', true, false, 'no such key: driverVersion'],
    ['device.attributes["gpu.nvidia.com"].driverVersion == semver("550.54.15")', true, false, 'no such key: driverVersion'],
    ['"gpu.nvidia.com" in device.attributes', true, true, false],
    ['has(device.attributes["gpu.nvidia.com"].cudaComputeCapability)', true, false, false],
    ['device.attributes["dra.example.com"].model.startsWith("A")', true, 'no such key: model', false],
    ['has(device.attributes["dra.example.com"].model) && device.attributes["dra.example.com"].model.startsWith("B")', false, false, true],
    ['cel.bind(g, device.attributes["gpu.nvidia.com"], has(g.healthy) && g.healthy && g.index == 0)', true, false, false],
    ['device.attributes["gpu.nvidia.com"].healthy', true, false, 'no such key: healthy'],
    ['matches(device.driver, "^gpu\\\\.")', true, true, false],
    ['device.attributes.exists(domain, domain == "dra.example.com")', true, false, true],
    ['device.capacity["gpu.nvidia.com"].all(name, name == "memory")', true, true, true],
    ['["gpu.nvidia.com", "dra.example.com"].exists(d, device.driver == d)', true, true, true],
  ])('%s: H100 %p, L4 %p, example %p', (expression, h100, l4, example) => {
    expect(evaluateDeviceSelector(expression, H100)).toEqual(outcome(h100));
    expect(evaluateDeviceSelector(expression, L4)).toEqual(outcome(l4));
    expect(evaluateDeviceSelector(expression, EXAMPLE)).toEqual(outcome(example));
  });

  test('a domain the device lacks is an empty map: in and has() see no entry, a field of it is missing', () => {
    expect(evaluateDeviceSelector('"other.com" in device.attributes', H100)).toEqual({ matches: false });
    expect(evaluateDeviceSelector('has(device.attributes["other.com"].model)', H100)).toEqual({ matches: false });
    expect(evaluateDeviceSelector('size(device.capacity["other.com"]) == 0', H100)).toEqual({ matches: true });
    expect(evaluateDeviceSelector('device.attributes["other.com"].model == "x"', H100)).toEqual({ error: 'no such key: model' });
  });

  test('fails when a device lacks an attribute the selector reads, as the scheduler does', () => {
    expect(evaluateDeviceSelector('device.attributes["gpu.nvidia.com"].cudaComputeCapability.major() >= 8', L4)).toEqual({ error: 'no such key: cudaComputeCapability' });
  });

  test('fails when the selector does not check, with its problems', () => {
    const result = evaluateDeviceSelector('device.capacity["gpu.nvidia.com"].memory.compareTo("20Gi") >= 0', H100);
    expect(result.error).toBe([
      "<input>:1:42: found no matching overload for 'compareTo' applied to 'kubernetes.Quantity.(string)'; expected kubernetes.Quantity.compareTo(kubernetes.Quantity)",
      ' | device.capacity["gpu.nvidia.com"].memory.compareTo("20Gi") >= 0',
      ' | .........................................^',
    ].join('\n'));
    expect(result.selectorErrors).toHaveLength(1);
  });

  test('fails when a dyn result is not a bool', () => {
    expect(evaluateDeviceSelector('device.attributes["gpu.nvidia.com"].index', H100)).toEqual({ error: 'the selector evaluated to the int 0, not a bool' });
    expect(evaluateDeviceSelector('device.attributes["gpu.nvidia.com"].productName', H100)).toEqual({ error: 'the selector evaluated to the string "NVIDIA H100 80GB HBM3", not a bool' });
  });

  test('fails when a run-time argument is invalid', () => {
    expect(evaluateDeviceSelector('device.capacity["gpu.nvidia.com"].memory.isLessThan(quantity("lots"))', H100).error).toMatch(/^quantities must match the regular expression/);
    expect(evaluateDeviceSelector('device.attributes["gpu.nvidia.com"].driverVersion.isLessThan(semver("v550"))', H100).error).toMatch(/^invalid semver "v550"/);
    expect(evaluateDeviceSelector('device.attributes["gpu.nvidia.com"].driverVersion.isLessThan(semver("v550", true))', H100)).toEqual({ matches: false });
  });

  test('fails when the device description is invalid', () => {
    expect(evaluateDeviceSelector('true', { driver: '' })).toEqual({ error: "the device has no 'driver'" });
    expect(evaluateDeviceSelector('true', { driver: 'x', attributes: { 'a/b/c': 1 } })).toEqual({ error: "attribute name 'a/b/c' is not a C identifier, optionally after a domain and '/'" });
    expect(evaluateDeviceSelector('true', { driver: 'x', attributes: { 'x/m': 1, 'm': 2 } })).toEqual({ error: "attribute 'm' of domain 'x' is given twice" });
    expect(evaluateDeviceSelector('true', { driver: 'x', attributes: { v: { version: '1.2' } } })).toEqual({
      error: 'attribute \'v\' ({"version":"1.2"}) is not a string, integer, boolean or { version } with a semver.org 2.0.0 version',
    });
    expect(evaluateDeviceSelector('true', { driver: 'x', attributes: { n: 1.5 } })).toEqual({ error: "attribute 'n' (1.5) is not an integer" });
    expect(evaluateDeviceSelector('true', { driver: 'x', attributes: { n: 2n ** 63n } })).toEqual({ error: "attribute 'n' (9223372036854775808) is beyond int64" });
    expect(evaluateDeviceSelector('true', { driver: 'x', capacity: { m: 'lots' } })).toEqual({ error: 'capacity \'m\' ("lots") is not a quantity' });
  });

  test('big integers and versions with build metadata', () => {
    const device: DeviceDescription = { driver: 'x', attributes: { big: 2n ** 62n, v: { version: '1.2.3-rc.1+build.9' } } };
    expect(evaluateDeviceSelector('device.attributes["x"].big == 4611686018427387904', device)).toEqual({ matches: true });
    expect(evaluateDeviceSelector('device.attributes["x"].v == semver("1.2.3-rc.1") && device.attributes["x"].v.isLessThan(semver("1.2.3"))', device)).toEqual({ matches: true });
  });
});

describe('evaluateDeviceSelector: a selector cannot hang the build or exhaust its memory', () => {
  const ten = '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]';

  test('fails when comprehensions take more than 100,000 steps', () => {
    const nested = `${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, ${ten}.all(e, ${ten}.all(f, true))))))`;
    const start = Date.now();
    expect(evaluateDeviceSelector(nested, H100)).toEqual({ error: 'the selector took more than 100000 comprehension steps' });
    expect(Date.now() - start).toBeLessThan(5000);
  });

  test('fails when doubling a string outgrows the size limit', () => {
    const doubled = (n: number): string => (n === 0 ? 'size(a) > 0' : `cel.bind(a, a + a, ${doubled(n - 1)})`);
    expect(evaluateDeviceSelector(`cel.bind(a, "xxxxxxxxxxxxxxxx", ${doubled(12)})`, H100)).toEqual({ matches: true }); // 65,536 characters
    expect(evaluateDeviceSelector(`cel.bind(a, "xxxxxxxxxxxxxxxx", ${doubled(13)})`, H100)).toEqual({ error: 'a string of size 131072 exceeds the evaluation limit of 65536' });
    expect(evaluateDeviceSelector(`cel.bind(a, "x", ${doubled(60)})`, H100).error).toMatch(/exceeds the evaluation limit of 65536|cost limit/);
  });

  test('fails when doubling a list outgrows the size limit', () => {
    const doubled = (n: number): string => (n === 0 ? 'l.size() > 0' : `cel.bind(l, l + l, ${doubled(n - 1)})`);
    expect(evaluateDeviceSelector(`cel.bind(l, [1], ${doubled(40)})`, H100).error).toMatch(/^(a list of size \d+ exceeds the evaluation limit of 65536|the selector exceeded the evaluation cost limit of 1000000)$/);
  });

  test('fails when replace would square a string, before building it', () => {
    const squared = 'cel.bind(a, "xxxxxxxxxxxxxxxx", cel.bind(a, a.replace("x", a), cel.bind(a, a.replace("x", a), cel.bind(a, a.replace("x", a), size(a) > 0))))';
    const start = Date.now();
    expect(evaluateDeviceSelector(squared, H100).error).toMatch(/^(a string of size \d+ exceeds the evaluation limit of 65536|the selector exceeded the evaluation cost limit of 1000000)$/);
    expect(Date.now() - start).toBeLessThan(5000);
  });

  /** `s` bound to 16 x's doubled `n` times, then `body`. */
  const withBig = (n: number, body: string): string =>
    `cel.bind(s, "xxxxxxxxxxxxxxxx", ${'cel.bind(s, s + s, '.repeat(n)}${body}${')'.repeat(n)})`;

  test('fails when join or format would build too long a string', () => {
    expect(evaluateDeviceSelector(withBig(10, '[s, s, s, s].join(s) != ""'), H100)).toEqual({ error: 'a string of size 114688 exceeds the evaluation limit of 65536' });
    expect(evaluateDeviceSelector(withBig(10, '"%s%s%s%s".format([s, s, s, s]) != ""'), H100).error).toMatch(/^a string of size \d+ exceeds the evaluation limit of 65536$/);
    expect(evaluateDeviceSelector(withBig(2, '[s, s].join("-") != "" && "%s".format([s]) == s'), H100)).toEqual({ matches: true });
  });

  test('fails when the work on big values exceeds the cost limit', () => {
    expect(evaluateDeviceSelector(withBig(11, `${ten}.all(x, ${ten}.all(y, s == s + ""))`), H100)).toEqual({ error: 'the selector exceeded the evaluation cost limit of 1000000' });
  });

  test('fails when a budget is exceeded on a side of || that another side decides', () => {
    const nested = `${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, ${ten}.all(e, ${ten}.all(f, true))))))`;
    expect(evaluateDeviceSelector(`${nested} || true`, H100)).toEqual({ error: 'the selector took more than 100000 comprehension steps' });
  });

  test('the budgets are per evaluation: the next device starts afresh', () => {
    const heavy = `${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, true))))`; // 10,000 steps
    for (let i = 0; i < 20; i++) {
      expect(evaluateDeviceSelector(heavy, i % 2 ? H100 : L4)).toEqual({ matches: true });
    }
  });
});
