import { FieldErrorKind } from '../../src/core/field-error';
import { unknownOverrideRootErrors, validateDeploymentOverrides } from '../../src/provider-kit/overrides';

describe('unknownOverrideRootErrors', () => {
  const message = (key: string) => `no ${key}`;

  test('reports each root that is neither allowed nor blocked, in the order given', () => {
    expect(unknownOverrideRootErrors({ b: 1, spec: {}, a: null, kind: 'x', status: {} }, ['spec'], message)).toEqual([
      { path: 'spec.provider.overrides.b', kind: FieldErrorKind.FORBIDDEN, message: 'no b' },
      { path: 'spec.provider.overrides.a', kind: FieldErrorKind.FORBIDDEN, message: 'no a' },
    ]);
  });

  test('reports nothing for absent, non-object or allowed-only overrides', () => {
    expect(unknownOverrideRootErrors(undefined, ['spec'], message)).toEqual([]);
    expect(unknownOverrideRootErrors(['x'], ['spec'], message)).toEqual([]);
    expect(unknownOverrideRootErrors({ resource: {}, inference: {} }, ['resource', 'inference'], message)).toEqual([]);
  });

  test('matches root keys exactly, and an empty allow list refuses every root', () => {
    expect(unknownOverrideRootErrors({ Spec: {} }, ['spec'], message).map((e) => e.path)).toEqual(['spec.provider.overrides.Spec']);
    expect(unknownOverrideRootErrors({ spec: {} }, [], message).map((e) => e.path)).toEqual(['spec.provider.overrides.spec']);
  });
});

describe('validateDeploymentOverrides: only spec at the root', () => {
  test('fails for every other root, naming it, the provider and the one allowed root', () => {
    expect(validateDeploymentOverrides({ routerMode: 'kv', template: {}, spec: { paused: true } }, { displayName: 'P' })).toEqual([
      'routerMode', 'template',
    ].map((key) => ({
      path: `spec.provider.overrides.${key}`,
      kind: FieldErrorKind.FORBIDDEN,
      message: `a Deployment has no root field "${key}"; P overrides merge into each Deployment, so put fields under "spec"`,
    })));
  });

  test('reports a blocked root as blocked only', () => {
    expect(validateDeploymentOverrides({ metadata: {} }, { displayName: 'P' }).map((e) => e.message)).toEqual(['overriding "metadata" is not allowed']);
  });
});
