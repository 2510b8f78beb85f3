/**
 * Test cases that several providers share whatever upstream objects they render: blocked
 * override keys, and the model server env built from spec.env and the Hugging Face token Secret.
 */
import type { TranslatorHarness } from './translator-harness';
import { FieldErrorKind } from '../../src/core/field-error';
import type { EnvVar } from '../../src/core/generated/model-deployment-spec';

/** Registers: overrides may not name apiVersion, kind, metadata or status. */
export function blockedOverrideKeyCases({ fixture, translator, withOverrides }: TranslatorHarness): void {
  test.each(['apiVersion', 'kind', 'metadata', 'status'])('fails when an override names the blocked top-level key %s', (key) => {
    expect(translator.validate(fixture(withOverrides({ [key]: {} })))).toEqual([
      { path: `spec.provider.overrides.${key}`, kind: FieldErrorKind.FORBIDDEN, message: `overriding "${key}" is not allowed` },
    ]);
  });
}

interface EnvCase {
  readonly name: string;
  readonly spec: { readonly env?: EnvVar[]; readonly secrets?: { readonly huggingFaceToken: string } };
  /** The container env after the generated entries; undefined for no env at all. */
  readonly expected?: unknown[];
}

/** The HF_TOKEN entry a provider adds for the token Secret `hf-secret`. */
export const SECRET_TOKEN = { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-secret', key: 'HF_TOKEN' } } };

/** spec.env and token Secret combinations that the model server containers of several providers get alike. */
export const MODEL_SERVER_ENV_CASES = {
  secretReplacesUserToken: {
    name: 'keeps spec.env order and appends HF_TOKEN from the secret, dropping a user HF_TOKEN',
    spec: {
      env: [
        { name: 'A', value: '1' },
        { name: 'HF_TOKEN', value: 'plain-text' },
        { name: 'B', value: '2' },
      ],
      secrets: { huggingFaceToken: 'hf-secret' },
    },
    expected: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }, SECRET_TOKEN],
  },
  userTokenWithoutSecret: {
    name: 'keeps a user HF_TOKEN when no secret is configured',
    spec: { env: [{ name: 'HF_TOKEN', value: 'x' }] },
    expected: [{ name: 'HF_TOKEN', value: 'x' }],
  },
  everyValueFromSource: {
    name: 'keeps every valueFrom source, prefers it over value and drops empty values',
    spec: {
      env: [
        { name: 'BOTH', value: 'ignored', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'EMPTY', value: '' },
      ],
    },
    expected: [
      { name: 'BOTH', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
      { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'EMPTY' },
    ],
  },
  nothingToSet: {
    name: 'omits env when there is nothing to set',
    spec: {},
  },
} satisfies Record<string, EnvCase>;

export type ModelServerEnvCase = keyof typeof MODEL_SERVER_ENV_CASES;

export interface ModelServerEnvSubject {
  readonly harness: TranslatorHarness;
  /** The containers that run the model server, each of which gets the env. */
  readonly containersOf: (manifests: any[]) => any[];
  /** The entries the provider puts before spec.env. @default [] */
  readonly generatedEnv?: unknown[];
}

/** Registers the given MODEL_SERVER_ENV_CASES for the subject's model server containers. */
export function modelServerEnvCases(subject: ModelServerEnvSubject, cases: ModelServerEnvCase[]): void {
  const generated = subject.generatedEnv ?? [];
  for (const id of cases) {
    const envCase: EnvCase = MODEL_SERVER_ENV_CASES[id];
    test(envCase.name, () => {
      const containers = subject.containersOf(subject.harness.synthOf({ spec: envCase.spec }));
      expect(containers.length).toBeGreaterThan(0);
      const expected = generated.length === 0 && envCase.expected === undefined ? undefined : [...generated, ...envCase.expected ?? []];
      for (const c of containers) expect(c.env).toEqual(expected);
    });
  }
}
