/**
 * A stored ModelDeployment record read back as the deployment it was rendered from, re-validated
 * with the pipeline the synth uses, so that a hand-edited record is reported instead of trusted.
 */
import { createHash } from 'crypto';
import { parseModelDeploymentManifest } from '../../admission/model-deployment-manifest';
import type { InferenceProvider } from '../../api/provider/inference-provider';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import type { ServingMode } from '../../api/serving';
import { ANNOTATION_UPSTREAM_FIELDS, decodeUpstreamFields } from '../../controller-contract/upstream-fields';
import { FieldError, formatFieldError, internalError, invalid, required } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import { isJsonObject } from '../../core/json-object';
import { ANNOTATION_ENGINE_REASON, ANNOTATION_PROVIDER_REASON } from '../../core/labels';
import { resolvedServingMode } from '../../core/model-deployment-object';
import { resolveModelDeployment } from '../../pipeline/resolve';
import type { ProviderCatalog } from '../../selection/provider-catalog';

/** A record that passed re-validation: the deployment as providers see it, and its provider. */
export interface ValidRecord {
  readonly deployment: ResolvedDeployment & { readonly namespace: string };
  readonly provider: InferenceProvider;
  readonly errors?: undefined;
}

/** A record that did not: every error, formatted as field errors are (`path: Kind: value: message`). */
export interface InvalidRecord {
  readonly errors: readonly string[];
  readonly deployment?: undefined;
  readonly provider?: undefined;
}

/**
 * Reads a record as the API server returns it and re-validates it:
 *
 * 1. the manifest checks of the CLI (`apiVersion`/`kind`, `metadata.name`, string labels and
 *    annotations, the spec against the ModelDeployment CRD schema), plus a namespace;
 * 2. `resolveModelDeployment` on `{name, namespace, labels, annotations, spec}` with `catalog`
 *    (defaulting, validation, engine and provider selection, the provider's own checks), with the
 *    recorded `spec.gateway.enabled` kept as it is;
 * 3. the recorded `spec.engine.type` and `spec.provider.name` (which the synth writes) must be
 *    present and equal what selection picks now;
 * 4. the `inference.cdk8s.io/upstream-fields` annotation, when present, must be readable.
 *
 * The deployment carries the record's spec, serving mode (aggregated when unset) and the
 * selection reasons of the `inference.cdk8s.io/*-selected-reason` annotations (else those of
 * the re-validation). Never throws: an unexpected failure of a stage is an error of the record.
 */
export function readRecord(record: unknown, catalog: ProviderCatalog): ValidRecord | InvalidRecord {
  const memo = memoKey(record);
  let byUid = memos.get(catalog);
  const hit = memo && byUid?.get(memo.uid);
  if (hit && hit.fingerprint === memo.fingerprint) return hit.result;
  let result: ValidRecord | InvalidRecord;
  try {
    result = readChecked(record, catalog);
  } catch (e) {
    result = failed([internalError('<root>', `the record could not be validated: ${errorText(e)}`)]);
  }
  if (memo) {
    if (!byUid) memos.set(catalog, (byUid = new Map()));
    byUid.set(memo.uid, { fingerprint: memo.fingerprint, result });
  }
  return result;
}

/**
 * Re-validation runs the whole synth pipeline (schema, defaulting, CEL selection, the provider's
 * checks): milliseconds per record, while the rest of a status reconcile is far cheaper. Its
 * result depends only on what it reads, so it is kept per record (by uid) for as long as the name,
 * namespace, labels, annotations and spec stay the same. The fingerprint of those is a SHA-256
 * digest, not their JSON: a controller holding thousands of records keeps 44 bytes each instead
 * of another copy of every record.
 */
const memos = new WeakMap<ProviderCatalog, Map<string, { fingerprint: string; result: ValidRecord | InvalidRecord }>>();

function memoKey(record: unknown): { uid: string; fingerprint: string } | undefined {
  if (!isJsonObject(record) || !isJsonObject(record.metadata)) return undefined;
  const { uid, name, namespace, labels, annotations } = record.metadata;
  if (typeof uid !== 'string' || uid === '') return undefined;
  const content = JSON.stringify([name, namespace, labels ?? null, annotations ?? null, record.spec ?? null]);
  return { uid, fingerprint: createHash('sha256').update(content).digest('base64') };
}

function readChecked(record: unknown, catalog: ProviderCatalog): ValidRecord | InvalidRecord {
  const parsed = parseModelDeploymentManifest(record);
  const errors: FieldError[] = [...parsed.errors];
  const md = parsed.md;
  if (md && (md.namespace === undefined || md.namespace === '')) {
    errors.push(required('metadata.namespace', 'a ModelDeployment record is namespaced: the objects it describes live in its namespace'));
  }
  if (!md || errors.length > 0) return failed(errors);

  const recorded = (record as { spec: Record<string, any> }).spec;
  const recordedEnabled = isJsonObject(recorded.gateway) && typeof recorded.gateway.enabled === 'boolean' ? recorded.gateway.enabled : undefined;
  const resolution = resolveModelDeployment(md, catalog, { gatewayKnown: recordedEnabled });
  if (resolution.errors.length > 0 || !resolution.resolved || !resolution.provider) return failed(resolution.errors);
  const resolved = resolution.resolved;

  const recordedEngine = isJsonObject(recorded.engine) ? recorded.engine.type : undefined;
  const recordedProvider = isJsonObject(recorded.provider) ? recorded.provider.name : undefined;
  if (recordedEngine === undefined || recordedEngine === '') {
    errors.push(required('spec.engine.type', `a rendered record names its engine (the synth writes the selected one; selection now picks ${JSON.stringify(resolved.engine)}: ${resolved.engineReason})`));
  } else if (recordedEngine !== resolved.engine) {
    errors.push(invalid('spec.engine.type', recordedEngine, `selection now picks ${JSON.stringify(resolved.engine)} (${resolved.engineReason})`));
  }
  if (recordedProvider === undefined || recordedProvider === '') {
    errors.push(required('spec.provider.name', `a rendered record names its provider (the synth writes the selected one; selection now picks ${JSON.stringify(resolved.provider)}: ${resolved.providerReason})`));
  } else if (recordedProvider !== resolved.provider) {
    errors.push(invalid('spec.provider.name', recordedProvider, `selection now picks ${JSON.stringify(resolved.provider)} (${resolved.providerReason})`));
  }
  const upstreamFields = decodeUpstreamFields(md.annotations?.[ANNOTATION_UPSTREAM_FIELDS]);
  if (upstreamFields.error !== undefined) {
    errors.push(invalid(`metadata.annotations[${JSON.stringify(ANNOTATION_UPSTREAM_FIELDS)}]`, md.annotations?.[ANNOTATION_UPSTREAM_FIELDS],
      `${upstreamFields.error}: the synth writes it (what the rendered custom resources need of their CRDs); remove it or render the record again`));
  }
  if (errors.length > 0) return failed(errors);

  const annotations = md.annotations ?? {};
  const spec = structuredClone(recorded);
  return {
    deployment: {
      name: md.name,
      namespace: md.namespace!,
      labels: { ...md.labels },
      annotations: { ...annotations },
      spec,
      engineType: resolved.engine as string as ResolvedDeployment['engineType'],
      servingMode: resolvedServingMode(spec as ModelDeploymentSpec) as string as ServingMode,
      providerName: resolved.provider,
      engineSelectedReason: nonEmpty(annotations[ANNOTATION_ENGINE_REASON]) ?? resolved.engineReason,
      providerSelectedReason: nonEmpty(annotations[ANNOTATION_PROVIDER_REASON]) ?? resolved.providerReason,
    },
    provider: resolution.provider,
  };
}

function failed(errors: readonly FieldError[]): InvalidRecord {
  const texts = errors.map(formatFieldError);
  return { errors: texts.length > 0 ? texts : [formatFieldError(internalError('<root>', 'the record was rejected without a reason'))] };
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The message of a thrown value. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return String(e);
  } catch {
    return 'unknown error';
  }
}
