/**
 * The `inference.cdk8s.io/devices` annotation: YAML or JSON with one list of requests under
 * `resources`, `prefill` and `decode`; its own problems (`readDevicesAnnotation`) and those it
 * has with the deployment's spec (`devicesAnnotationErrors`).
 *
 * Parsed values are cached by text, so each case that expects errors against a spec uses an
 * annotation text of its own (see the `test.failing` case below).
 */
import { formatFieldError } from '../../src/core/field-error';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import {
  DEVICES_ANNOTATION,
  deviceRequestsOf,
  devicesAnnotationErrors,
  hasDeviceRequests,
  MAX_DEVICES_ANNOTATION_BYTES,
  readDevicesAnnotation,
} from '../../src/provider-kit/device-annotation';

const AT = 'metadata.annotations["inference.cdk8s.io/devices"]';

function annotations(value: string): Record<string, string> {
  return { [DEVICES_ANNOTATION]: value };
}

/** The formatted errors of the annotation on its own; an invalid annotation has no requests. */
function errorsOf(value: string): string[] {
  const { requests, errors } = readDevicesAnnotation(annotations(value));
  expect(requests).toEqual({});
  return errors.map(formatFieldError);
}

let unique = 0;
/** A request list whose text no other case uses: `count` devices under a fresh request name. */
function requestsYaml(count: number): string {
  unique += 1;
  return `\n  - name: gpu-${unique}\n    deviceClassName: gpu.nvidia.com\n    count: ${count}\n`;
}

function aggregated(gpus: number): ModelDeploymentSpec {
  return { model: { id: 'Qwen/Qwen3-0.6B' }, resources: { gpu: { count: gpus } } } as ModelDeploymentSpec;
}

function disaggregated(prefillGpus: number, decodeGpus: number): ModelDeploymentSpec {
  return {
    model: { id: 'Qwen/Qwen3-0.6B' },
    serving: { mode: 'disaggregated' },
    scaling: { prefill: { replicas: 1, gpu: { count: prefillGpus } }, decode: { replicas: 1, gpu: { count: decodeGpus } } },
  } as ModelDeploymentSpec;
}

describe('readDevicesAnnotation', () => {
  test('no annotation: no requests, no errors', () => {
    expect(readDevicesAnnotation(undefined)).toEqual({ requests: {}, errors: [] });
    expect(readDevicesAnnotation({ other: 'x' })).toEqual({ requests: {}, errors: [] });
    expect(hasDeviceRequests({ other: 'x' })).toBe(false);
    expect(deviceRequestsOf(undefined, 'resources')).toEqual([]);
  });

  test('a YAML value', () => {
    const value = [
      'resources:',
      '  - name: gpu',
      '    deviceClassName: gpu.nvidia.com',
      '    count: 2',
      '    selectors:',
      '      - memoryAtLeast: 40Gi',
      '      - cel: device.driver == "gpu.nvidia.com"',
      '',
    ].join('\n');
    const { requests, errors } = readDevicesAnnotation(annotations(value));
    expect(errors).toEqual([]);
    expect(requests).toEqual({
      resources: [{
        name: 'gpu',
        deviceClassName: 'gpu.nvidia.com',
        count: 2,
        selectors: [
          { expression: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0', description: 'memory at least 40Gi' },
          { expression: 'device.driver == "gpu.nvidia.com"', description: 'CEL "device.driver == \\"gpu.nvidia.com\\""' },
        ],
      }],
    });
    expect(hasDeviceRequests(annotations(value))).toBe(true);
    expect(deviceRequestsOf(annotations(value), 'resources').map((r) => r.name)).toEqual(['gpu']);
    expect(deviceRequestsOf(annotations(value), 'prefill')).toEqual([]);
  });

  test('a JSON value, prefill and decode', () => {
    const value = JSON.stringify({
      prefill: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com' }],
      decode: [{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 4, selectors: [{ productName: 'NVIDIA H100 80GB HBM3' }] }],
    });
    const { requests, errors } = readDevicesAnnotation(annotations(value));
    expect(errors).toEqual([]);
    expect(Object.keys(requests).sort()).toEqual(['decode', 'prefill']);
    expect(requests.prefill).toEqual([{ name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 1, selectors: [] }]);
    expect(requests.decode![0].count).toBe(4);
    expect(requests.decode![0].selectors[0].expression).toBe('device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"');
  });

  test('not YAML', () => {
    expect(errorsOf('resources: [unclosed\n')).toEqual([
      `${AT}: Invalid value: "resources: [unclosed\\n": is not YAML or JSON: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    ]);
    expect(errorsOf('{"resources": ')[0]).toMatch(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]: Invalid value: .*: is not YAML or JSON: /);
    // Duplicate keys would silently drop requests: they are an error.
    expect(errorsOf('resources: []\nresources: []\n')[0]).toContain('is not YAML or JSON: Map keys must be unique');
  });

  test.each([
    ['a list', '- name: gpu\n  deviceClassName: gpu.nvidia.com\n'],
    ['a string', 'gpu'],
    ['null', 'null'],
    ['empty', ''],
  ])('not a mapping: %s', (_, value) => {
    expect(errorsOf(value)).toEqual([
      `${AT}: Invalid value: ${JSON.stringify(value)}: must be a mapping with a list of device requests under resources, prefill, decode`,
    ]);
  });

  test('an unknown component key', () => {
    expect(errorsOf('workers:\n  - {name: gpu, deviceClassName: gpu.nvidia.com}\n')).toEqual([
      `${AT}.workers: Invalid value: [{"name":"gpu","deviceClassName":"gpu.nvidia.com"}]: unknown key; the requests go under resources, prefill, decode`,
    ]);
    // Beside a valid component, the whole annotation is still refused.
    expect(errorsOf('resources:\n  - {name: gpu, deviceClassName: gpu.nvidia.com}\nprefil: []\n')).toEqual([
      `${AT}.prefil: Invalid value: []: unknown key; the requests go under resources, prefill, decode`,
    ]);
  });

  test('an empty mapping lists no requests', () => {
    expect(errorsOf('{}')).toEqual([
      `${AT}: Invalid value: "{}": lists no device requests; give them under resources, prefill, decode, or remove the annotation`,
    ]);
  });

  test('an empty or null component', () => {
    expect(errorsOf('resources: []\n')).toEqual([`${AT}.resources: Invalid value: []: must list at least one device request, or be left out`]);
    expect(errorsOf('decode:\n')).toEqual([
      `${AT}.decode: Invalid value: null: must be a list of device requests ({name, deviceClassName, count, selectors})`,
    ]);
  });

  test('request errors carry their path under the annotation', () => {
    expect(errorsOf('prefill:\n  - name: gpu\n    count: 0\n    deviceClassName: gpu.nvidia.com\n    selectors: [{cel: "device.driver =="}]\n')).toEqual([
      `${AT}.prefill[0].count: Invalid value: 0: must be a whole number from 1 to 32: the devices of this request each pod claims`,
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.prefill\[0\]\.selectors\[0\]\.cel: Invalid value: "device\.driver ==": invalid CEL device selector:\n<input>:1:\d+: /),
    ]);
  });

  test('over the size cap, refused before parsing with a short excerpt', () => {
    const padding = `# ${'x'.repeat(MAX_DEVICES_ANNOTATION_BYTES)}\n`;
    const value = `resources:\n  - {name: gpu, deviceClassName: gpu.nvidia.com}\n${padding}`;
    const bytes = Buffer.byteLength(value);
    expect(errorsOf(value)).toEqual([
      `${AT}: Invalid value: ${JSON.stringify(`${value.slice(0, 40)}…`)}: is ${bytes} bytes, more than the ${MAX_DEVICES_ANNOTATION_BYTES} allowed`,
    ]);
  });

  test('the cap counts bytes, not characters', () => {
    const request = 'resources:\n  - {name: gpu, deviceClassName: gpu.nvidia.com}\n# ';
    const atCap = request + 'é'.repeat((MAX_DEVICES_ANNOTATION_BYTES - request.length) / 2);
    expect(Buffer.byteLength(atCap)).toBe(MAX_DEVICES_ANNOTATION_BYTES);
    expect(readDevicesAnnotation(annotations(atCap)).errors).toEqual([]);
    expect(errorsOf(`${atCap}é`)[0]).toContain(`is ${MAX_DEVICES_ANNOTATION_BYTES + 2} bytes, more than the ${MAX_DEVICES_ANNOTATION_BYTES} allowed`);
  });
});

describe('devicesAnnotationErrors', () => {
  test('no annotation: no errors', () => {
    expect(devicesAnnotationErrors(undefined, aggregated(1))).toEqual([]);
  });

  test('aggregated: resources claiming at least gpu.count devices', () => {
    expect(devicesAnnotationErrors(annotations(`resources:${requestsYaml(2)}`), aggregated(2))).toEqual([]);
    expect(devicesAnnotationErrors(annotations(`resources:${requestsYaml(4)}`), aggregated(2))).toEqual([]);
  });

  test('disaggregated: prefill and decode, each against its own gpu.count', () => {
    expect(devicesAnnotationErrors(annotations(`prefill:${requestsYaml(1)}decode:${requestsYaml(2)}`), disaggregated(1, 2))).toEqual([]);
    // A component may claim none: its pods request GPUs as before.
    expect(devicesAnnotationErrors(annotations(`decode:${requestsYaml(2)}`), disaggregated(1, 2))).toEqual([]);
  });

  test('the annotation\'s own errors come first, alone', () => {
    expect(devicesAnnotationErrors(annotations('[]'), aggregated(8)).map(formatFieldError)).toEqual([
      `${AT}: Invalid value: "[]": must be a mapping with a list of device requests under resources, prefill, decode`,
    ]);
  });

  test('prefill and decode on an aggregated deployment', () => {
    const errors = devicesAnnotationErrors(annotations(`prefill:${requestsYaml(1)}decode:${requestsYaml(1)}`), aggregated(1)).map(formatFieldError);
    expect(errors).toEqual([
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.prefill: Invalid value: "1 request\(s\)": an? aggregated deployment runs no prefill pods; put the requests under resources$/),
      expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.decode: Invalid value: "1 request\(s\)": an? aggregated deployment runs no decode pods; put the requests under resources$/),
    ]);
  });

  test('resources on a disaggregated deployment', () => {
    const errors = devicesAnnotationErrors(annotations(`resources:${requestsYaml(1)}${requestsYaml(1).slice(1)}`), disaggregated(1, 1)).map(formatFieldError);
    expect(errors).toEqual([
      `${AT}.resources: Invalid value: "2 request(s)": a disaggregated deployment runs no aggregated serving pods; put the requests under prefill and decode`,
    ]);
  });

  test('gpu.count more than the devices claimed, summed over the requests', () => {
    // Two requests of 1 and 2 devices: 3 claimed.
    const value = `resources:${requestsYaml(1)}${requestsYaml(2).slice(1)}`;
    expect(devicesAnnotationErrors(annotations(value), aggregated(4)).map(formatFieldError)).toEqual([
      'spec.resources.gpu.count: Invalid value: 4: is more than the 3 device(s) claimed under metadata.annotations["inference.cdk8s.io/devices"].resources: ' +
        'pods that claim devices request no spec.resources.gpu.type, so the claim must hold every GPU the engine uses; raise the request counts or lower gpu.count',
    ]);
  });

  test('gpu.count more than claimed, per disaggregated component', () => {
    const errors = devicesAnnotationErrors(annotations(`prefill:${requestsYaml(1)}decode:${requestsYaml(2)}`), disaggregated(2, 2)).map(formatFieldError);
    expect(errors).toEqual([
      expect.stringMatching(/^spec\.scaling\.prefill\.gpu\.count: Invalid value: 2: is more than the 1 device\(s\) claimed under metadata\.annotations\["inference\.cdk8s\.io\/devices"\]\.prefill: .*request no spec\.scaling\.prefill\.gpu\.type/),
    ]);
  });

  // BUG (src/provider-kit/device-annotation.ts, devicesAnnotationErrors): it pushes its errors into the
  // `errors` array of the cached parse result, so the errors of one deployment stick to the
  // annotation text: every later deployment (and readDevicesAnnotation) with the same text gets
  // them, however valid. Remove `.failing` once fixed.
  test('the errors of one deployment do not stick to another with the same annotation text', () => {
    const value = annotations(`resources:${requestsYaml(2)}`);
    expect(devicesAnnotationErrors(value, aggregated(4))).toHaveLength(1);
    expect(devicesAnnotationErrors(value, aggregated(2))).toEqual([]);
    expect(readDevicesAnnotation(value).errors).toEqual([]);
  });
});
