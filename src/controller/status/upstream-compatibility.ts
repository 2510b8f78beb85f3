/**
 * `IncompatibleUpstream`: whether the cluster's CRDs take the custom resources a record's YAML
 * holds. The record lists what they need (`inference.cdk8s.io/upstream-fields`, written by the
 * synth); the controller reads each kind's CRD and compares (compatibility/crd-compatibility.ts).
 * AI Runway's providers write their upstream objects with strict field validation and fail the
 * deployment on an unknown field; our objects are applied by someone else, so the controller
 * reports the same outcome from what it can see: the installed schema.
 */
import { CONDITION_READY, CONDITION_RESOURCE_CREATED, DesiredCondition } from './conditions';
import { RecordingLookup } from './object-ref';
import type { ValidRecord } from './record-deployment';
import { CRD_API_VERSION, CRD_KIND, CrdIncompatibility, crdIncompatibility, describeIncompatibility } from '../../controller-contract/crd-compatibility';
import { upstreamCrdNameOf } from '../../controller-contract/upstream-crds';
import { ANNOTATION_UPSTREAM_FIELDS, decodeUpstreamFields } from '../../controller-contract/upstream-fields';
import type { ProviderCatalog } from '../../selection/provider-catalog';

/** Reason of `ResourceCreated=False` and `Ready=False` when a CRD does not take the record's objects. */
export const REASON_INCOMPATIBLE_UPSTREAM = 'IncompatibleUpstream';

/** What the record's objects need that the cluster's CRDs do not give, and the conditions that say so. */
export interface UpstreamIncompatible {
  readonly incompatibilities: readonly CrdIncompatibility[];
  /** `status.message`, and the message of both conditions. */
  readonly message: string;
  readonly resourceCreated: DesiredCondition;
  readonly ready: DesiredCondition;
}

/**
 * Checks every kind the record's annotation lists against its CRD: undefined when every CRD
 * takes the objects. A kind is not judged when the controller does not know its CRD (a kind
 * of a provider it was not built with) or the CRD is not installed (the objects cannot have been
 * created: the status source's `ResourceNotFound` says so).
 */
export function upstreamIncompatibility(record: ValidRecord, catalog: ProviderCatalog, lookup: RecordingLookup): UpstreamIncompatible | undefined {
  const decoded = decodeUpstreamFields(record.deployment.annotations[ANNOTATION_UPSTREAM_FIELDS]);
  // A malformed annotation fails re-validation (record-deployment.ts) before this runs.
  if (decoded.error !== undefined) return undefined;
  const found: CrdIncompatibility[] = [];
  for (const expected of decoded.entries) {
    const name = upstreamCrdNameOf(catalog, expected.apiVersion, expected.kind);
    if (name === undefined) continue;
    const crd = lookup.get({ apiVersion: CRD_API_VERSION, kind: CRD_KIND, namespace: '', name });
    if (crd === undefined) continue;
    const incompatibility = crdIncompatibility(crd, name, expected);
    if (incompatibility) found.push(incompatibility);
  }
  if (found.length === 0) return undefined;
  const message = `the cluster's CRDs do not take this deployment's objects: ${found.map(describeIncompatibility).join('; ')}; `
    + 'upgrade the operator (or its CRDs) to the version the library targets, or render for the version installed';
  return {
    incompatibilities: found,
    message,
    resourceCreated: { type: CONDITION_RESOURCE_CREATED, status: 'False', reason: REASON_INCOMPATIBLE_UPSTREAM, message },
    ready: { type: CONDITION_READY, status: 'False', reason: REASON_INCOMPATIBLE_UPSTREAM, message },
  };
}
