/**
 * The harness every provider's translator tests share: translate a `ResolvedModelDeployment`
 * with a provider object into a fresh `Testing.chart()`, synthesize it (schema-checked), and read
 * back the manifests, the warnings and the model server container.
 */
import { ApiObject, Chart, Testing } from 'cdk8s';
import type { Construct } from 'constructs';
import type { FixtureOptions } from './resolved-deployment';
import { expectValidManifests } from './schema-validator';
import type { InferenceProvider } from '../../src/api/provider/inference-provider';
import { ResolvedModelDeployment, toResolvedDeployment } from '../../src/api/resolved-model-deployment';
import { Warning, Warnings } from '../../src/api/warnings';
import { FieldError, formatFieldError } from '../../src/core/field-error';

/**
 * A provider seen through the typed internal deployment the fixtures build: what the pipeline
 * does with a provider object (the public view is made from the internal one at the boundary).
 */
export interface ProviderTranslator {
  readonly provider: InferenceProvider;
  readonly providerName: string;
  readonly displayName: string;
  validate(md: ResolvedModelDeployment): FieldError[];
  translate(scope: Construct, md: ResolvedModelDeployment): ApiObject[];
}

/** The internal-view adapter of a provider object. */
export function translatorOf(provider: InferenceProvider): ProviderTranslator {
  return {
    provider,
    providerName: provider.name,
    displayName: provider.displayName,
    validate: (md) => provider.validate(toResolvedDeployment(md)),
    translate: (scope, md) => provider.translate(scope, toResolvedDeployment(md)),
  };
}

export interface SynthOptions {
  /**
   * Check every synthesized manifest against the upstream schemas (unknown fields rejected).
   * Off only for outputs that are deliberately not schema-valid (a JSON null override).
   * @default true
   */
  readonly validateSchema?: boolean;
}

export interface Synthesized {
  readonly chart: Chart;
  /** What `translate` returned: the upstream objects in output order. */
  readonly returned: ApiObject[];
  readonly manifests: any[];
  /** The messages of the warnings recorded anywhere in the chart, in tree order. */
  readonly warnings: string[];
  /** The same warnings with the path of the construct each is recorded on. */
  readonly recordedWarnings: Warning[];
}

/** Translates `md` with `translator` into a fresh chart and synthesizes it. */
export function synthesize(translator: ProviderTranslator, md: ResolvedModelDeployment, options: SynthOptions = {}): Synthesized {
  const chart = Testing.chart();
  const returned = translator.translate(chart, md);
  const manifests = Testing.synth(chart);
  if (options.validateSchema ?? true) expectValidManifests(manifests);
  const recordedWarnings = Warnings.collect(chart);
  return { chart, returned, manifests, warnings: recordedWarnings.map((w) => w.message), recordedWarnings };
}

/** The manifest of `kind` named `name`; throws, listing what there is, when there is none. */
export function findManifest(manifests: any[], kind: string, name: string): any {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name} in ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return found;
}

/** The one manifest of `kind`; throws unless there is exactly one. */
export function onlyManifestOf(manifests: any[], kind: string): any {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, got ${found.length} in ${manifests.map((m) => m.kind).join(', ')}`);
  return found[0];
}

/** The first (model server) container of the Deployment named `name`. */
export function deploymentContainer(manifests: any[], name: string): any {
  return findManifest(manifests, 'Deployment', name).spec.template.spec.containers[0];
}

/** The translator's field errors for `md`, formatted as the API server words them. */
export function fieldErrorsOf(translator: ProviderTranslator, md: ResolvedModelDeployment): string[] {
  return translator.validate(md).map(formatFieldError);
}

/** A provider's translator bound to its fixture. */
export interface TranslatorHarness {
  readonly translator: ProviderTranslator;
  /** The provider's admitted baseline deployment with `options` merged in. */
  readonly fixture: (options?: FixtureOptions) => ResolvedModelDeployment;
  /** Translates and synthesizes `md`. */
  synth(md: ResolvedModelDeployment, options?: SynthOptions): Synthesized;
  /** The manifests of the fixture with `options`. */
  synthOf(options?: FixtureOptions): any[];
  /** The formatted field errors of `md`, or of the fixture with `options`. */
  errorsOf(mdOrOptions?: FixtureOptions | ResolvedModelDeployment): string[];
  /** Fixture options that set `spec.provider.overrides` for this provider. */
  withOverrides(overrides: unknown): FixtureOptions;
}

function isResolved(value: FixtureOptions | ResolvedModelDeployment): value is ResolvedModelDeployment {
  return 'engineReason' in value;
}

export function translatorHarness(
  provider: InferenceProvider,
  fixture: (options?: FixtureOptions) => ResolvedModelDeployment,
): TranslatorHarness {
  const translator = translatorOf(provider);
  const synth = (md: ResolvedModelDeployment, options?: SynthOptions) => synthesize(translator, md, options);
  return {
    translator,
    fixture,
    synth,
    synthOf: (options = {}) => synth(fixture(options)).manifests,
    errorsOf: (mdOrOptions = {}) => fieldErrorsOf(translator, isResolved(mdOrOptions) ? mdOrOptions : fixture(mdOrOptions)),
    withOverrides: (overrides) => ({ spec: { provider: { name: translator.providerName, overrides: overrides as any } } }),
  };
}
