import { InferenceProviderConfig } from '../../../src';
import {
  parseInferenceProviderConfigManifest,
  readInferenceProviderConfigManifest,
} from '../../../src/api/provider/inference-provider-config-manifest';
import { FieldErrorKind } from '../../../src/core/field-error';

function manifest(status?: unknown): Record<string, unknown> {
  return {
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'InferenceProviderConfig',
    metadata: { name: 'inhouse' },
    spec: {},
    ...(status !== undefined && { status }),
  };
}

describe('readInferenceProviderConfigManifest', () => {
  test('passes a manifest without status as ready', () => {
    expect(readInferenceProviderConfigManifest(manifest())).toEqual({
      entry: { name: 'inhouse', ready: true, spec: {} },
      errors: [],
    });
  });

  test('reads a boolean status.ready', () => {
    expect(readInferenceProviderConfigManifest(manifest({ ready: false })).entry?.ready).toBe(false);
    expect(readInferenceProviderConfigManifest(manifest({ ready: true })).entry?.ready).toBe(true);
  });

  test('passes a status without ready, or with ready null, as ready', () => {
    expect(readInferenceProviderConfigManifest(manifest({})).entry?.ready).toBe(true);
    expect(readInferenceProviderConfigManifest(manifest({ ready: null })).entry?.ready).toBe(true);
  });

  test('lets the ready argument win over status.ready', () => {
    expect(readInferenceProviderConfigManifest(manifest({ ready: false }), true).entry?.ready).toBe(true);
  });

  test('fails when status.ready is not a boolean', () => {
    expect(readInferenceProviderConfigManifest(manifest({ ready: 'false' }))).toEqual({
      errors: [{ path: 'status.ready', kind: FieldErrorKind.INVALID, value: 'false', message: 'must be a boolean' }],
    });
  });

  test('fails when status.ready is not a boolean, even when ready is given', () => {
    expect(readInferenceProviderConfigManifest(manifest({ ready: 1 }), true).errors).toEqual([
      { path: 'status.ready', kind: FieldErrorKind.INVALID, value: 1, message: 'must be a boolean' },
    ]);
  });

  test('fails with status.ready alongside the other field errors', () => {
    const bad = { ...manifest({ ready: 'yes' }), kind: 'Other' };
    expect(readInferenceProviderConfigManifest(bad).errors.map((e) => e.path)).toEqual(['kind', 'status.ready']);
  });
});

describe('parseInferenceProviderConfigManifest', () => {
  test('fails with the rendered field error when status.ready is not a boolean', () => {
    expect(() => parseInferenceProviderConfigManifest(manifest({ ready: 'true' }))).toThrow(
      'invalid InferenceProviderConfig:\n  status.ready: Invalid value: "true": must be a boolean',
    );
  });
});

describe('the explicit-selection-only annotation', () => {
  const annotated = (value: string) => ({ ...manifest(), metadata: { name: 'inhouse', annotations: { 'inference.cdk8s.io/explicit-selection-only': value } } });

  test('"true" marks the provider explicit-selection only, "false" does not, and the manifest round-trips', () => {
    expect(readInferenceProviderConfigManifest(annotated('true')).entry).toEqual({ name: 'inhouse', ready: true, spec: {}, explicitSelectionOnly: true });
    expect(readInferenceProviderConfigManifest(annotated('false')).entry).toEqual({ name: 'inhouse', ready: true, spec: {} });
    const config = InferenceProviderConfig.fromManifest(annotated('true'));
    expect(config.explicitSelectionOnly).toBe(true);
    expect(config.toManifest().metadata).toEqual({ name: 'inhouse', annotations: { 'inference.cdk8s.io/explicit-selection-only': 'true' } });
    expect(config.withReady(false)._toEntry()).toEqual({ name: 'inhouse', ready: false, spec: {}, explicitSelectionOnly: true });
  });

  test('any other value is an error naming the values allowed', () => {
    expect(readInferenceProviderConfigManifest(annotated('yes')).errors).toEqual([{
      path: 'metadata.annotations["inference.cdk8s.io/explicit-selection-only"]',
      kind: FieldErrorKind.NOT_SUPPORTED,
      value: 'yes',
      message: 'supported values: "true", "false"',
    }]);
  });
});
