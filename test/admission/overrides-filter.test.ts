import {
  findForbiddenOverrideKeys,
  SECURITY_SENSITIVE_OVERRIDE_KEYS,
  SIZING_OVERRIDE_KEYS,
  sizingOverrideMessage,
  validateProviderOverrides,
} from '../../src/admission/overrides-filter';
import { FieldErrorKind, formatFieldError } from '../../src/core/field-error';

const security = (key: string) => `overriding "${key}" is not allowed for security reasons`;
const SOURCES: Record<string, string> = {
  replicas: 'replica counts come from spec.scaling.replicas (spec.scaling.prefill.replicas and spec.scaling.decode.replicas when disaggregated)',
  resources: 'container resources come from spec.resources (spec.scaling.prefill and spec.scaling.decode when disaggregated)',
};
const sizing = (key: string) =>
  `overriding "${key}" is not allowed anywhere in spec.provider.overrides, for any provider: ${SOURCES[key]}, where admission enforces its limits`;

function summary(overrides: unknown): Array<[string, string]> {
  return validateProviderOverrides(overrides).map((e) => [e.path, e.message]);
}

describe('validateProviderOverrides', () => {
  test('passes absent overrides', () => {
    expect(validateProviderOverrides(undefined)).toEqual([]);
    expect(validateProviderOverrides(null)).toEqual([]);
  });

  test.each([[{ labels: { team: 'ml' } }], [{ routerMode: 'kv' }], [{}], [{ spec: { containers: [{ name: 'main', env: [] }] } }]])(
    'passes allowed overrides %j',
    (overrides) => {
      expect(validateProviderOverrides(overrides)).toEqual([]);
    },
  );

  test.each([
    [[1, 2], 5],
    ['text', 6],
    [42, 2],
    [true, 4],
  ])('fails when overrides are not a JSON object (%j)', (overrides, bytes) => {
    expect(validateProviderOverrides(overrides)).toEqual([
      { path: 'spec.provider.overrides', kind: FieldErrorKind.INVALID, value: `<redacted ${bytes} bytes>`, message: 'overrides must be a JSON object' },
    ]);
  });

  test('fails when overrides cannot be serialised as JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const errors = validateProviderOverrides(cyclic);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: 'spec.provider.overrides', kind: FieldErrorKind.INVALID, message: 'overrides must be valid JSON' });
  });

  test('never echoes the overrides value', () => {
    const [error] = validateProviderOverrides(['hf_secret_token']);
    expect(formatFieldError(error)).toBe('spec.provider.overrides: Invalid value: "<redacted 19 bytes>": overrides must be a JSON object');
  });

  test.each(SECURITY_SENSITIVE_OVERRIDE_KEYS.map((k) => [k]))('fails when overrides contain the security key %s', (key) => {
    expect(validateProviderOverrides({ worker: { [key]: {} } })).toEqual([
      { path: `spec.provider.overrides.worker.${key}`, kind: FieldErrorKind.FORBIDDEN, message: security(key) },
    ]);
  });

  test.each(SIZING_OVERRIDE_KEYS.map((k) => [k]))('fails when overrides contain the sizing key %s', (key) => {
    expect(validateProviderOverrides({ [key]: 3 })).toEqual([
      { path: `spec.provider.overrides.${key}`, kind: FieldErrorKind.FORBIDDEN, message: sizing(key) },
    ]);
  });

  test('the sizing keys are exactly replicas and resources, each message saying where the value comes from', () => {
    expect(SIZING_OVERRIDE_KEYS).toEqual(['replicas', 'resources']);
    expect(sizingOverrideMessage('replicas')).toContain('spec.scaling.replicas');
    expect(sizingOverrideMessage('resources')).toContain('come from spec.resources');
  });

  test.each(SIZING_OVERRIDE_KEYS.map((k) => [k]))('fails when the sizing key %s is deep inside any provider\'s shape', (key) => {
    // KAITO's inference template, a Dynamo service, a Deployment container: the same rule everywhere.
    expect(summary({
      inference: { template: { spec: { containers: [{ name: 'm', [key]: {} }] } } },
      spec: { services: { VllmWorker: { [key]: 2 } } },
    })).toEqual([
      [`spec.provider.overrides.inference.template.spec.containers[0].${key}`, sizing(key)],
      [`spec.provider.overrides.spec.services.VllmWorker.${key}`, sizing(key)],
    ]);
  });

  test('fails when a forbidden key is inside an array, with the index in the path', () => {
    expect(summary({ spec: { containers: [{ name: 'a' }, { name: 'b', securityContext: { privileged: true } }] } })).toEqual([
      ['spec.provider.overrides.spec.containers[1].securityContext', security('securityContext')],
    ]);
    expect(summary({ spec: { containers: [{ securityContext: {} }] } })).toEqual([
      ['spec.provider.overrides.spec.containers[0].securityContext', security('securityContext')],
    ]);
  });

  test('fails through nested arrays', () => {
    expect(summary({ matrix: [[{ hostPID: true }]] })).toEqual([['spec.provider.overrides.matrix[0][0].hostPID', security('hostPID')]]);
  });

  test('fails when both passes find keys, security errors first', () => {
    expect(summary({ worker: { replicas: 5, securityContext: { privileged: true } } })).toEqual([
      ['spec.provider.overrides.worker.securityContext', security('securityContext')],
      ['spec.provider.overrides.worker.replicas', sizing('replicas')],
    ]);
  });

  test('does not descend below a key forbidden in the same pass', () => {
    expect(summary({ securityContext: { securityContext: { hostNetwork: true } } })).toEqual([
      ['spec.provider.overrides.securityContext', security('securityContext')],
    ]);
    expect(summary({ resources: { limits: { resources: {} }, replicas: 2 } })).toEqual([
      ['spec.provider.overrides.resources', sizing('resources')],
    ]);
  });

  test('still descends below a key that only the other pass forbids', () => {
    expect(summary({ resources: { securityContext: {} } })).toEqual([
      ['spec.provider.overrides.resources.securityContext', security('securityContext')],
      ['spec.provider.overrides.resources', sizing('resources')],
    ]);
    expect(summary({ securityContext: { replicas: 1 } })).toEqual([
      ['spec.provider.overrides.securityContext', security('securityContext')],
      ['spec.provider.overrides.securityContext.replicas', sizing('replicas')],
    ]);
  });

  test('matches keys exactly and case-sensitively', () => {
    expect(validateProviderOverrides({ SecurityContext: {}, Replicas: 1, resourcesPolicy: {}, nodeNameHint: 'x' })).toEqual([]);
  });

  test('does not treat string values as keys', () => {
    expect(validateProviderOverrides({ args: ['securityContext', 'replicas'], note: 'resources' })).toEqual([]);
  });

  test('findForbiddenOverrideKeys accepts a custom base path', () => {
    expect(findForbiddenOverrideKeys({ nodeName: 'n1' }, 'x')).toEqual([
      { path: 'x.nodeName', kind: FieldErrorKind.FORBIDDEN, message: security('nodeName') },
    ]);
  });
});
