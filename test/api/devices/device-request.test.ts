/**
 * The plain device-request shape (`readDeviceRequests`, `readSelector`): each typed predicate
 * renders to the CEL one writes by hand (and selects what it says on described devices), raw CEL
 * is taken as written, and every problem is a field error with its path.
 */
import {
  DeviceSelectorSpec,
  MAX_ALLOCATED_DEVICES,
  MAX_DEVICE_REQUESTS,
  MAX_DEVICE_SELECTORS,
  readDeviceRequests,
  readSelector,
} from '../../../src/api/devices/device-request';
import { formatFieldError, FieldError } from '../../../src/core/field-error';
import { DeviceDescription, evaluateDeviceSelector } from '../../../src/dra/device-evaluation';

const PATH = 'spec.devices';
const GPU = { name: 'gpu', deviceClassName: 'gpu.nvidia.com' };

/** The formatted errors of a list of requests; an invalid list yields no requests at all. */
function errorsOf(value: unknown): string[] {
  const { requests, errors } = readDeviceRequests(value, PATH);
  expect(errors.length).toBeGreaterThan(0);
  expect(requests).toEqual([]);
  return errors.map(formatFieldError);
}

/** The errors of one selector, in a request of its own. */
function selectorErrors(selector: unknown): string[] {
  return errorsOf([{ ...GPU, selectors: [selector] }]);
}

/** The CEL a selector renders to (it must be valid). */
function celOf(selector: DeviceSelectorSpec): string {
  const errors: FieldError[] = [];
  const checked = readSelector(selector, 'selector', errors);
  expect(errors.map(formatFieldError)).toEqual([]);
  return checked!.expression;
}

const H100: DeviceDescription = {
  driver: 'gpu.nvidia.com',
  attributes: { productName: 'NVIDIA H100 80GB HBM3', architecture: 'Hopper', index: 0, mig: false },
  capacity: { memory: '80Gi' },
};
const L4: DeviceDescription = {
  driver: 'gpu.nvidia.com',
  attributes: { productName: 'NVIDIA L4', architecture: 'Ada Lovelace', index: 3, mig: true },
  capacity: { memory: '24Gi' },
};
const MI300: DeviceDescription = {
  driver: 'gpu.amd.com',
  attributes: { productName: 'AMD Instinct MI300X' },
  capacity: { memory: '192Gi' },
};

function matches(expression: string, device: DeviceDescription): boolean | string {
  const r = evaluateDeviceSelector(expression, device);
  return r.error === undefined ? r.matches : r.error;
}

describe('typed predicates render to CEL', () => {
  test.each<[string, DeviceSelectorSpec, string]>([
    ['driver', { driver: 'gpu.nvidia.com' }, 'device.driver == "gpu.nvidia.com"'],
    ['productName', { productName: 'NVIDIA H100 80GB HBM3' }, 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"'],
    ['productName with domain', { productName: 'AMD Instinct MI300X', domain: 'gpu.amd.com' }, 'device.attributes["gpu.amd.com"].productName == "AMD Instinct MI300X"'],
    ['memoryAtLeast', { memoryAtLeast: '40Gi' }, 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0'],
    ['memoryAtLeast with domain', { memoryAtLeast: '100G', domain: 'gpu.amd.com' }, 'device.capacity["gpu.amd.com"].memory.compareTo(quantity("100G")) >= 0'],
    ['memoryAtLeast as a number', { memoryAtLeast: 1024 as unknown as string }, 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("1024")) >= 0'],
    ['attribute equals a string', { attribute: 'gpu.nvidia.com/architecture', equals: 'Hopper' }, 'device.attributes["gpu.nvidia.com"].architecture == "Hopper"'],
    ['attribute equals an integer', { attribute: 'gpu.nvidia.com/index', equals: 3 }, 'device.attributes["gpu.nvidia.com"].index == 3'],
    ['attribute equals a boolean', { attribute: 'gpu.nvidia.com/mig', equals: false }, 'device.attributes["gpu.nvidia.com"].mig == false'],
    ['capacity atLeast', { capacity: 'gpu.nvidia.com/memory', atLeast: '40Gi' }, 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0'],
    ['capacity atLeast of another driver', { capacity: 'dra.example.com/slots', atLeast: '4' }, 'device.capacity["dra.example.com"].slots.compareTo(quantity("4")) >= 0'],
  ])('%s', (_, selector, cel) => {
    expect(celOf(selector)).toBe(cel);
  });

  test('string operands are CEL string literals: quotes, backslashes and new lines escaped', () => {
    const cel = celOf({ productName: 'A "quoted"\\name\n' });
    expect(cel).toBe('device.attributes["gpu.nvidia.com"].productName == "A \\"quoted\\"\\\\name\\n"');
    // The literal means the text itself: it selects a device with exactly that product name.
    expect(matches(cel, { driver: 'gpu.nvidia.com', attributes: { productName: 'A "quoted"\\name\n' } })).toBe(true);
    expect(matches(cel, { driver: 'gpu.nvidia.com', attributes: { productName: 'A quoted name' } })).toBe(false);
  });

  test('the rendered CEL selects the devices the predicate describes', () => {
    const cases: Array<[DeviceSelectorSpec, [boolean | string, boolean | string, boolean | string]]> = [
      [{ driver: 'gpu.nvidia.com' }, [true, true, false]],
      [{ productName: 'NVIDIA H100 80GB HBM3' }, [true, false, 'no such key: productName']],
      [{ productName: 'AMD Instinct MI300X', domain: 'gpu.amd.com' }, ['no such key: productName', 'no such key: productName', true]],
      [{ memoryAtLeast: '40Gi' }, [true, false, 'no such key: memory']],
      [{ memoryAtLeast: '80Gi' }, [true, false, 'no such key: memory']], // at least: equal memory matches
      [{ memoryAtLeast: '81Gi' }, [false, false, 'no such key: memory']],
      [{ attribute: 'gpu.nvidia.com/architecture', equals: 'Hopper' }, [true, false, 'no such key: architecture']],
      [{ attribute: 'gpu.nvidia.com/index', equals: 3 }, [false, true, 'no such key: index']],
      [{ attribute: 'gpu.nvidia.com/mig', equals: true }, [false, true, 'no such key: mig']],
      [{ capacity: 'gpu.amd.com/memory', atLeast: '100Gi' }, ['no such key: memory', 'no such key: memory', true]],
    ];
    for (const [selector, expected] of cases) {
      const cel = celOf(selector);
      expect([cel, [H100, L4, MI300].map((d) => matches(cel, d))]).toEqual([cel, expected]);
    }
  });

  test('the checked selector says what it asks for in words', () => {
    const errors: FieldError[] = [];
    const described = [
      { driver: 'gpu.nvidia.com' },
      { productName: 'NVIDIA L4' },
      { memoryAtLeast: '40Gi' },
      { attribute: 'gpu.nvidia.com/index', equals: 3 },
      { capacity: 'gpu.nvidia.com/memory', atLeast: '8Gi' },
      { cel: 'device.driver != ""' },
    ].map((s) => readSelector(s, 's', errors)?.description);
    expect(errors).toEqual([]);
    expect(described).toEqual([
      'driver gpu.nvidia.com',
      'product name "NVIDIA L4"',
      'memory at least 40Gi',
      'attribute gpu.nvidia.com/index equal to 3',
      'capacity gpu.nvidia.com/memory at least 8Gi',
      'CEL "device.driver != \\"\\""',
    ]);
  });
});

describe('readDeviceRequests: accepted requests', () => {
  test('raw CEL is taken as written, typed selectors rendered, count defaults to 1', () => {
    const raw = 'device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0")) &&\n  "gpu.nvidia.com" in device.attributes';
    const { requests, errors } = readDeviceRequests([
      { ...GPU, count: 2, selectors: [{ cel: raw }, { memoryAtLeast: '40Gi' }] },
      { name: 'nic', deviceClassName: 'rdma.example.com' },
    ], PATH);
    expect(errors).toEqual([]);
    expect(requests).toEqual([
      {
        name: 'gpu',
        deviceClassName: 'gpu.nvidia.com',
        count: 2,
        selectors: [
          { expression: raw, description: `CEL ${JSON.stringify(raw)}` },
          { expression: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0', description: 'memory at least 40Gi' },
        ],
      },
      { name: 'nic', deviceClassName: 'rdma.example.com', count: 1, selectors: [] },
    ]);
  });

  test('the limits themselves are allowed: 32 requests, 32 selectors, 32 devices', () => {
    const requests = Array.from({ length: MAX_DEVICE_REQUESTS }, (_, i) => ({ name: `r${i}`, deviceClassName: 'gpu.nvidia.com' }));
    expect(readDeviceRequests(requests, PATH).errors).toEqual([]);
    const selectors = Array.from({ length: MAX_DEVICE_SELECTORS }, () => ({ driver: 'gpu.nvidia.com' }));
    expect(readDeviceRequests([{ ...GPU, count: MAX_ALLOCATED_DEVICES, selectors }], PATH).errors).toEqual([]);
    expect(readDeviceRequests([{ ...GPU, count: 16 }, { ...GPU, name: 'more', count: 16 }], PATH).requests).toHaveLength(2);
  });
});

describe('readDeviceRequests: request errors', () => {
  test('missing name and deviceClassName', () => {
    expect(errorsOf([{ count: 1 }])).toEqual([
      `${PATH}[0].name: Required value: the request name becomes the name of the request in the ResourceClaim`,
      `${PATH}[0].deviceClassName: Required value: the name of a DeviceClass, such as "gpu.nvidia.com"`,
    ]);
  });

  test('a name that is no DNS label, a deviceClassName that is no DNS subdomain', () => {
    expect(errorsOf([{ name: 'GPU_0', deviceClassName: 'gpu.nvidia.com' }])).toEqual([
      `${PATH}[0].name: Invalid value: "GPU_0": must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character`,
    ]);
    expect(errorsOf([{ name: 'gpu.0', deviceClassName: 'gpu.nvidia.com' }])[0]).toMatch(/^spec\.devices\[0\]\.name: Invalid value: "gpu\.0": /);
    expect(errorsOf([{ name: 'gpu', deviceClassName: 'Gpu_Class' }])[0]).toMatch(/^spec\.devices\[0\]\.deviceClassName: Invalid value: "Gpu_Class": /);
    expect(errorsOf([{ name: '', deviceClassName: 'gpu.nvidia.com' }])).toEqual([`${PATH}[0].name: Invalid value: "": must be a non-empty string`]);
  });

  test.each([0, 33, 1.5, -1, '2'])('count %p', (count) => {
    expect(errorsOf([{ ...GPU, count }])).toEqual([
      `${PATH}[0].count: Invalid value: ${JSON.stringify(count)}: must be a whole number from 1 to 32: the devices of this request each pod claims`,
    ]);
  });

  test('duplicate names name the earlier request', () => {
    expect(errorsOf([GPU, { ...GPU, name: 'other' }, { ...GPU, deviceClassName: 'other.example.com' }])).toEqual([
      `${PATH}[2].name: Invalid value: "gpu": duplicates ${PATH}[0].name: request names are unique within a claim`,
    ]);
  });

  test('more than 32 requests', () => {
    const requests = Array.from({ length: 33 }, (_, i) => ({ name: `r${i}`, deviceClassName: 'gpu.nvidia.com' }));
    const errors = errorsOf(requests);
    expect(errors).toContain(`${PATH}: Invalid value: "33 requests": a ResourceClaim holds at most 32 device requests`);
  });

  test('more than 32 selectors in one request', () => {
    const selectors = Array.from({ length: 33 }, () => ({ driver: 'gpu.nvidia.com' }));
    expect(errorsOf([{ ...GPU, selectors }])).toEqual([
      `${PATH}[0].selectors: Invalid value: "33 selectors": a device request has at most 32 selectors`,
    ]);
  });

  test('counts adding up to more than 32 devices', () => {
    expect(errorsOf([{ ...GPU, count: 20 }, { ...GPU, name: 'more', count: 13 }])).toEqual([
      `${PATH}: Invalid value: "33 devices": one claim is allocated at most 32 devices; lower the counts`,
    ]);
  });

  test('unknown keys of a request and of a selector', () => {
    expect(errorsOf([{ ...GPU, replicas: 2, selectors: [{ driver: 'gpu.nvidia.com', version: '1' }] }])).toEqual([
      `${PATH}[0].replicas: Invalid value: 2: unknown field; known fields: name, deviceClassName, count, selectors`,
      `${PATH}[0].selectors[0].version: Invalid value: "1": unknown field; known fields: cel, driver, productName, memoryAtLeast, attribute, capacity, domain, equals, atLeast`,
    ]);
  });

  test('not a list, an empty list, a request that is no object, selectors that are no list', () => {
    expect(errorsOf({ gpu: GPU })).toEqual([
      `${PATH}: Invalid value: {"gpu":{"name":"gpu","deviceClassName":"gpu.nvidia.com"}}: must be a list of device requests ({name, deviceClassName, count, selectors})`,
    ]);
    expect(errorsOf([])).toEqual([`${PATH}: Invalid value: []: must list at least one device request, or be left out`]);
    expect(errorsOf(['gpu'])).toEqual([`${PATH}[0]: Invalid value: "gpu": must be a device request: {name, deviceClassName, count, selectors}`]);
    expect(errorsOf([{ ...GPU, selectors: { driver: 'x' } }])).toEqual([`${PATH}[0].selectors: Invalid value: {"driver":"x"}: must be a list of selectors`]);
  });

  test('every problem of every request is reported, with its index', () => {
    const errors = errorsOf([{ ...GPU, count: 0 }, { name: 'ok', deviceClassName: 'gpu.nvidia.com' }, { ...GPU, name: 'b', selectors: [{}] }]);
    expect(errors.map((e) => e.split(':')[0])).toEqual([`${PATH}[0].count`, `${PATH}[2].selectors[0]`]);
  });
});

describe('readDeviceRequests: selector errors', () => {
  const AT = `${PATH}[0].selectors[0]`;
  const ONE_OF = 'must have exactly one of cel, driver, productName, memoryAtLeast, attribute, capacity';

  test('no predicate', () => {
    expect(selectorErrors({})).toEqual([`${AT}: Invalid value: {}: ${ONE_OF}`]);
    // An operand alone is no predicate either.
    expect(selectorErrors({ domain: 'gpu.amd.com' })).toEqual([`${AT}: Invalid value: {"domain":"gpu.amd.com"}: ${ONE_OF}`]);
  });

  test('two predicates, named', () => {
    expect(selectorErrors({ driver: 'gpu.nvidia.com', memoryAtLeast: '40Gi' })).toEqual([
      `${AT}: Invalid value: {"driver":"gpu.nvidia.com","memoryAtLeast":"40Gi"}: ${ONE_OF} (found driver, memoryAtLeast)`,
    ]);
  });

  test('a selector that is no object', () => {
    expect(selectorErrors('device.driver == "x"')).toEqual([
      `${AT}: Invalid value: "device.driver == \\"x\\"": must be a selector: one of cel, driver, productName, memoryAtLeast, attribute, capacity`,
    ]);
  });

  test('an operand that does not apply to the predicate', () => {
    expect(selectorErrors({ attribute: 'gpu.nvidia.com/architecture', equals: 'Hopper', domain: 'gpu.nvidia.com' })).toEqual([
      `${AT}.domain: Invalid value: "gpu.nvidia.com": does not apply to attribute, which takes equals`,
    ]);
    expect(selectorErrors({ memoryAtLeast: '40Gi', atLeast: '80Gi' })).toEqual([
      `${AT}.atLeast: Invalid value: "80Gi": does not apply to memoryAtLeast, which takes domain`,
    ]);
    expect(selectorErrors({ driver: 'gpu.nvidia.com', equals: 'x' })).toEqual([`${AT}.equals: Invalid value: "x": does not apply to driver`]);
  });

  test('attribute without a domain, or with a name that is no C identifier', () => {
    expect(selectorErrors({ attribute: 'architecture', equals: 'Hopper' })).toEqual([
      `${AT}.attribute: Invalid value: "architecture": must be a qualified name such as "gpu.nvidia.com/architecture": needs the domain of the driver that publishes it, then "/"`,
    ]);
    expect(selectorErrors({ attribute: 'gpu.nvidia.com/cuda-version', equals: '12' })).toEqual([
      `${AT}.attribute: Invalid value: "gpu.nvidia.com/cuda-version": must be a qualified name such as "gpu.nvidia.com/architecture": the name after "/" must be a C identifier of at most 32 characters`,
    ]);
    expect(selectorErrors({ capacity: 'memory', atLeast: '1Gi' })[0]).toMatch(/^spec\.devices\[0\]\.selectors\[0\]\.capacity: Invalid value: "memory": .*needs the domain/);
  });

  test('equals missing, or not a string, integer or boolean', () => {
    expect(selectorErrors({ attribute: 'gpu.nvidia.com/architecture' })).toEqual([
      `${AT}.equals: Required value: an attribute selector needs the value the attribute must equal (a string, an integer or a boolean)`,
    ]);
    const notScalar = 'must be a string, an integer or a boolean: the value types of DRA attributes (write a version comparison as cel)';
    expect(selectorErrors({ attribute: 'gpu.nvidia.com/architecture', equals: { name: 'Hopper' } })).toEqual([
      `${AT}.equals: Invalid value: {"name":"Hopper"}: ${notScalar}`,
    ]);
    expect(selectorErrors({ attribute: 'gpu.nvidia.com/index', equals: 1.5 })).toEqual([`${AT}.equals: Invalid value: 1.5: ${notScalar}`]);
  });

  test('capacity without atLeast', () => {
    expect(selectorErrors({ capacity: 'gpu.nvidia.com/memory' })).toEqual([
      `${AT}.atLeast: Required value: a capacity selector needs the least quantity the device must have`,
    ]);
  });

  test('a quantity that is no Kubernetes quantity', () => {
    const message = 'must be a Kubernetes quantity such as "40Gi" or "80G"';
    expect(selectorErrors({ memoryAtLeast: '40GB' })).toEqual([`${AT}.memoryAtLeast: Invalid value: "40GB": ${message}`]);
    expect(selectorErrors({ capacity: 'gpu.nvidia.com/memory', atLeast: 'lots' })).toEqual([`${AT}.atLeast: Invalid value: "lots": ${message}`]);
  });

  test('a driver or domain that is no DNS subdomain, an empty product name', () => {
    expect(selectorErrors({ driver: 'NVIDIA GPU' })[0]).toMatch(/^spec\.devices\[0\]\.selectors\[0\]\.driver: Invalid value: "NVIDIA GPU": must consist of lower case/);
    expect(selectorErrors({ productName: 'X', domain: 'gpu_amd' })[0]).toMatch(/^spec\.devices\[0\]\.selectors\[0\]\.domain: Invalid value: "gpu_amd": /);
    expect(selectorErrors({ productName: '' })).toEqual([`${AT}.productName: Invalid value: "": must be a non-empty string`]);
  });

  test('empty CEL', () => {
    expect(selectorErrors({ cel: ' ' })).toEqual([
      `${AT}.cel: Invalid value: " ": must be a non-empty CEL expression over device.driver, device.attributes and device.capacity`,
    ]);
  });

  test('invalid CEL: the expression, <input>:line:column, the line and a caret under the column', () => {
    const cel = 'device.capacity["gpu.nvidia.com"].memory.compareTo("40Gi") >= 0';
    expect(selectorErrors({ cel })).toEqual([
      `${AT}.cel: Invalid value: ${JSON.stringify(cel)}: invalid CEL device selector:\n` +
        '<input>:1:42: found no matching overload for \'compareTo\' applied to \'kubernetes.Quantity.(string)\'; expected kubernetes.Quantity.compareTo(kubernetes.Quantity)\n' +
        ` | ${cel}\n` +
        // The caret sits under the column: 41 dots, then "^" under "compareTo".
        ` | ${'.'.repeat(41)}^`,
    ]);
  });

  test('invalid CEL over several lines points into the line of the error', () => {
    const cel = 'device.driver == "gpu.nvidia.com" &&\n  device.capacity["gpu.nvidia.com"].memory > 5';
    const [error] = selectorErrors({ cel });
    const lines = error.split('\n');
    expect(lines[0]).toBe(`${AT}.cel: Invalid value: ${JSON.stringify(cel)}: invalid CEL device selector:`);
    expect(lines[1]).toBe("<input>:2:44: found no matching overload for '_>_' applied to '(kubernetes.Quantity, int)'");
    expect(lines.slice(2)).toEqual([
      ' |   device.capacity["gpu.nvidia.com"].memory > 5',
      ` | ${'.'.repeat(43)}^`,
    ]);
  });

  test('a syntax error gives its position too', () => {
    const [error] = selectorErrors({ cel: 'device.driver == "gpu.nvidia.com" &&' });
    expect(error).toMatch(/^spec\.devices\[0\]\.selectors\[0\]\.cel: Invalid value: .*: invalid CEL device selector:\n<input>:1:\d+: syntax error: /);
    expect(error.split('\n').slice(-2)[0]).toBe(' | device.driver == "gpu.nvidia.com" &&');
    expect(error.split('\n').slice(-1)[0]).toMatch(/^ \| \.*\^$/);
  });

  test('a typed predicate whose rendered CEL is invalid is reported at the selector, with the rendered CEL', () => {
    // A lone surrogate survives as a \u escape, which CEL refuses.
    const [error] = selectorErrors({ productName: '\ud800' });
    expect(error).toMatch(/^spec\.devices\[0\]\.selectors\[0\]: Invalid value: "device\.attributes\[\\"gpu\.nvidia\.com\\"\]\.productName == .*": invalid CEL device selector:\n<input>:1:\d+: /);
  });

  test('readSelector reports at the path it is given and returns nothing on error', () => {
    const errors: FieldError[] = [];
    expect(readSelector({ memoryAtLeast: 'big' }, 'spec.selectors[3]', errors)).toBeUndefined();
    expect(errors.map(formatFieldError)).toEqual(['spec.selectors[3].memoryAtLeast: Invalid value: "big": must be a Kubernetes quantity such as "40Gi" or "80G"']);
  });
});
