/**
 * The status of one rendered ModelDeployment record, computed from what the caches hold.
 */
import {
  CONDITION_ENGINE_SELECTED,
  CONDITION_GATEWAY_READY,
  CONDITION_PROVIDER_SELECTED,
  CONDITION_RESOURCE_CREATED,
  CONDITION_VALIDATED,
  DesiredCondition,
  removeStatusCondition,
  setStatusCondition,
  storedConditions,
  truncateText,
} from './conditions';
import { gatewayOutcome, isRouted } from './gateway-status';
import { ObjectLookup, ObjectRef, RecordingLookup } from './object-ref';
import { providerOutcome } from './provider-outcome';
import { readRecord, ValidRecord } from './record-deployment';
import { statusPatch } from './status-patch';
import { REASON_INCOMPATIBLE_UPSTREAM, upstreamIncompatibility } from './upstream-compatibility';
import { isJsonObject } from '../../core/json-object';
import type { ProviderCatalog } from '../../selection/provider-catalog';
import { EXPLICIT_PROVIDER_REASON } from '../../selection/provider-selection';

/** What AI Runway's core writes as the engine reason of a spec that names the engine. */
export const EXPLICIT_ENGINE_REASON = 'explicit engine selection';

/** Condition reasons and messages of the core (AI Runway core spec §1.6). */
export const REASON_VALIDATION_PASSED = 'ValidationPassed';
export const REASON_VALIDATION_FAILED = 'ValidationFailed';
export const VALIDATION_PASSED_MESSAGE = 'Schema validation passed';
export const REASON_EXPLICIT_SELECTION = 'ExplicitSelection';
export const REASON_AUTO_SELECTED = 'AutoSelected';

/** `status.message` while the record is being deleted. */
export const TERMINATING_MESSAGE = 'ModelDeployment is being deleted';

/** Status fields this controller owns; any other stored field (e.g. `image`) is kept as it is. */
const OWNED_FIELDS = ['observedGeneration', 'phase', 'message', 'provider', 'engine', 'replicas', 'endpoint', 'gateway', 'conditions'] as const;

export interface RecordReconcile {
  /** The whole desired `status`. */
  readonly status: any;
  /** JSON merge-patch body for the /status subresource ({ status: {...} }, with null for fields to remove), or undefined when the stored status already equals the desired one. */
  readonly patch?: any;
  /** Every object this record's status was computed from (found or not), so events on them can be mapped back to the record. */
  readonly watched: ObjectRef[];
}

/**
 * Computes a record's status from what the lookup finds. Pure; `now` is the time a changed
 * condition transitions at.
 *
 * - A record being deleted (`metadata.deletionTimestamp`) → phase `Terminating`; nothing else
 *   changes and nothing is looked up.
 * - A record that fails re-validation (`readRecord`) → `Validated=False/ValidationFailed` with
 *   every error, phase `Failed`, message `Validation failed: <errors>`; the other fields and
 *   conditions stay as stored (AI Runway patches only these) and nothing is looked up.
 * - A valid record → `Validated`, `EngineSelected`, `ProviderSelected` True; phase, message,
 *   replicas, endpoint, `status.provider.resourceName/Kind`, `requestRef`, `workloadRef` and
 *   `Ready` from the provider (`providerOutcome`); when routed, `GatewayReady`, `status.gateway`
 *   and `status.provider.inferencePoolRef` (`gatewayOutcome`), otherwise none of them.
 * - A valid record whose custom resources an installed CRD does not take (it does not serve
 *   their apiVersion, or lacks a field they set: `upstreamIncompatibility`) → phase `Failed`,
 *   `ResourceCreated=False` and `Ready=False`, both reason `IncompatibleUpstream`, with a
 *   message naming kind, apiVersion and field paths. Once the CRDs take them, the
 *   `ResourceCreated` condition written for it (reason `IncompatibleUpstream`) is removed; a
 *   `ResourceCreated` of any other reason is someone else's and kept.
 *
 * Conditions of other types already stored are kept untouched, in place.
 */
export function reconcileRecord(record: any, catalog: ProviderCatalog, lookup: ObjectLookup, now: Date): RecordReconcile {
  const stored: Record<string, unknown> = isJsonObject(record) && isJsonObject(record.status) ? record.status : {};
  const metadata = isJsonObject(record) && isJsonObject(record.metadata) ? record.metadata : {};
  const generation = validGeneration(metadata.generation);
  const recording = new RecordingLookup(lookup);

  let status: Record<string, unknown>;
  if (metadata.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null) {
    status = { ...stored, ...observed(generation), phase: 'Terminating', message: TERMINATING_MESSAGE };
    if (generation === undefined) delete status.observedGeneration;
  } else {
    const read = readRecord(record, catalog);
    status = read.errors !== undefined
      ? invalidStatus(stored, read.errors, generation, now)
      : validStatus(stored, read, catalog, recording, generation, now);
  }
  const rawStatus = isJsonObject(record) ? record.status : undefined;
  const patch = statusPatch(rawStatus, status);
  return { status, ...(patch !== undefined && { patch }), watched: recording.watched };
}

function invalidStatus(
  stored: Record<string, unknown>,
  errors: readonly string[],
  generation: number | undefined,
  now: Date,
): Record<string, unknown> {
  const text = truncateText(errors.join('; '));
  const conditions = setStatusCondition(storedConditions(stored), condition(CONDITION_VALIDATED, 'False', REASON_VALIDATION_FAILED, text), generation, now);
  const status: Record<string, unknown> = {
    ...stored,
    ...observed(generation),
    phase: 'Failed',
    message: truncateText(`Validation failed: ${text}`),
    conditions,
  };
  if (generation === undefined) delete status.observedGeneration;
  return status;
}

function validStatus(
  stored: Record<string, unknown>,
  record: ValidRecord,
  catalog: ProviderCatalog,
  lookup: RecordingLookup,
  generation: number | undefined,
  now: Date,
): Record<string, unknown> {
  const { deployment } = record;
  const outcome = providerOutcome(record, lookup);
  const routed = isRouted(record);
  const gateway = routed ? gatewayOutcome(record, lookup) : undefined;
  const incompatible = upstreamIncompatibility(record, catalog, lookup);

  const engineExplicit = deployment.engineSelectedReason === EXPLICIT_ENGINE_REASON;
  const providerExplicit = deployment.providerSelectedReason === EXPLICIT_PROVIDER_REASON;
  let conditions = storedConditions(stored);
  const set = (c: DesiredCondition) => {
    conditions = setStatusCondition(conditions, c, generation, now);
  };
  set(condition(CONDITION_VALIDATED, 'True', REASON_VALIDATION_PASSED, VALIDATION_PASSED_MESSAGE));
  set(engineExplicit
    ? condition(CONDITION_ENGINE_SELECTED, 'True', REASON_EXPLICIT_SELECTION, 'Engine explicitly specified in spec')
    : condition(CONDITION_ENGINE_SELECTED, 'True', REASON_AUTO_SELECTED, `Engine ${deployment.engineType} auto-selected from provider capabilities`));
  set(providerExplicit
    ? condition(CONDITION_PROVIDER_SELECTED, 'True', REASON_EXPLICIT_SELECTION, 'Provider explicitly specified in spec')
    : condition(CONDITION_PROVIDER_SELECTED, 'True', REASON_AUTO_SELECTED, `Provider ${deployment.providerName} auto-selected`));
  if (incompatible) {
    set(incompatible.resourceCreated);
    set(incompatible.ready);
  } else {
    const ours = conditions.find((c) => c.type === CONDITION_RESOURCE_CREATED && c.reason === REASON_INCOMPATIBLE_UPSTREAM);
    if (ours) conditions = removeStatusCondition(conditions, CONDITION_RESOURCE_CREATED);
    set(outcome.ready);
  }
  if (gateway) set(gateway.condition);
  else conditions = removeStatusCondition(conditions, CONDITION_GATEWAY_READY);

  const others: Record<string, unknown> = { ...stored };
  for (const field of OWNED_FIELDS) delete others[field];
  const gatewayStatus = gateway?.status && Object.keys(gateway.status).length > 0 ? gateway.status : undefined;
  return {
    ...others,
    ...observed(generation),
    phase: incompatible ? 'Failed' : outcome.phase,
    message: truncateText(incompatible ? incompatible.message : outcome.message),
    provider: {
      name: deployment.providerName,
      selectedReason: deployment.providerSelectedReason,
      ...(outcome.resource && { resourceName: outcome.resource.name, resourceKind: outcome.resource.kind }),
      ...(outcome.request && { requestRef: { ...outcome.request } }),
      ...(outcome.workload && { workloadRef: { ...outcome.workload } }),
      ...(gateway?.inferencePool && { inferencePoolRef: { ...gateway.inferencePool } }),
    },
    engine: { type: deployment.engineType, selectedReason: deployment.engineSelectedReason },
    replicas: { ...outcome.replicas },
    ...(outcome.endpoint && { endpoint: { ...outcome.endpoint } }),
    ...(gatewayStatus && { gateway: { ...gatewayStatus } }),
    conditions,
  };
}

function condition(type: string, status: DesiredCondition['status'], reason: string, message: string): DesiredCondition {
  return { type, status, reason, message };
}

function observed(generation: number | undefined): { observedGeneration?: number } {
  return generation !== undefined ? { observedGeneration: generation } : {};
}

/** `metadata.generation` when it is a usable int64 (a non-negative safe integer). */
function validGeneration(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
