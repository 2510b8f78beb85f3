import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import * as poolV1 from '../imports/inference.networking.k8s.io';
import * as poolV1alpha2 from '../imports/inference.networking.x-k8s.io';

/** The InferencePool API of Gateway API Inference Extension 1.0 and later (AI Runway's). */
export const INFERENCE_POOL_V1 = 'inference.networking.k8s.io/v1';

/** The experimental InferencePool API of Inference Extension releases before 1.0. */
export const INFERENCE_POOL_V1ALPHA2 = 'inference.networking.x-k8s.io/v1alpha2';

/** An InferencePool `apiVersion` this library can synthesize. */
export type InferencePoolApiVersionString = typeof INFERENCE_POOL_V1 | typeof INFERENCE_POOL_V1ALPHA2;

/** What a controller-managed InferencePool is made of, independent of its API version. */
export interface InferencePoolSpecOptions {
  /** `metadata.name` (AI Runway: the ModelDeployment name). */
  readonly name: string;
  /** `metadata.namespace`; omitted when undefined, so the chart's namespace applies. */
  readonly namespace?: string;
  /** `metadata.labels` (omitted when empty). */
  readonly labels: Record<string, string>;
  /** Pod labels the pool selects (AI Runway: `airunway.ai/model-deployment: <md>`). Must not be empty. */
  readonly selector: Record<string, string>;
  /** Pod port of the model server. */
  readonly targetPort: number;
  /** Name of the endpoint picker's Service (`<md>-epp`). */
  readonly endpointPickerName: string;
  /** Service port of the endpoint picker (9002 by default). */
  readonly endpointPickerPort: number;
  /** Which InferencePool API to write. */
  readonly apiVersion: InferencePoolApiVersionString;
}

/**
 * API group of an InferencePool version: what HTTPRoute `backendRefs[].group`, ReferenceGrant
 * `to[].group` and the endpoint picker's RBAC rule must name for pools of that version.
 */
export function inferencePoolGroup(apiVersion: InferencePoolApiVersionString): string {
  switch (apiVersion) {
    case INFERENCE_POOL_V1:
      return 'inference.networking.k8s.io';
    case INFERENCE_POOL_V1ALPHA2:
      return 'inference.networking.x-k8s.io';
    default:
      throw new Error(unsupportedApiVersion(apiVersion));
  }
}

function unsupportedApiVersion(apiVersion: unknown): string {
  return `InferencePool apiVersion ${JSON.stringify(apiVersion)} is not supported; use ${INFERENCE_POOL_V1} or ${INFERENCE_POOL_V1ALPHA2}`;
}

/** Throws unless `value` is a TCP port number (an integer from 1 to 65535). */
export function checkPortNumber(prop: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new Error(`'${prop}' (${value}) must be an integer from 1 to 65535`);
  }
}

function poolMetadata(options: InferencePoolSpecOptions) {
  return {
    name: options.name,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    ...(Object.keys(options.labels).length > 0 ? { labels: { ...options.labels } } : {}),
  };
}

/**
 * Creates the controller-managed InferencePool (spec §6.5.1) as child `InferencePool` of `scope`
 * and returns it.
 *
 * - `inference.networking.k8s.io/v1`: `selector.matchLabels`, `targetPorts: [{number}]`,
 *   `endpointPickerRef: {name, port: {number}}`.
 * - `inference.networking.x-k8s.io/v1alpha2`: the same three concepts in that API's shape:
 *   a plain `selector` map, `targetPortNumber`, `extensionRef: {name, portNumber}`.
 *
 * In both, the endpoint picker reference leaves `group`/`kind` (core `Service`) and
 * `failureMode` (`FailClose`) to the API server's defaults. No ownerReference: the
 * ModelDeployment's uid is unknown at build time.
 *
 * Throws when the selector is empty (the pool would take in every pod of the namespace) or a
 * port is outside 1-65535.
 */
export function addInferencePool(scope: Construct, options: InferencePoolSpecOptions): ApiObject {
  if (Object.keys(options.selector).length === 0) {
    throw new Error(`'selector' of InferencePool ${JSON.stringify(options.name)} must name at least one pod label`);
  }
  checkPortNumber('targetPort', options.targetPort);
  checkPortNumber('endpointPickerPort', options.endpointPickerPort);
  const metadata = poolMetadata(options);
  switch (options.apiVersion) {
    case INFERENCE_POOL_V1:
      return new poolV1.InferencePool(scope, 'InferencePool', {
        metadata,
        spec: {
          selector: { matchLabels: { ...options.selector } },
          targetPorts: [{ number: options.targetPort }],
          endpointPickerRef: { name: options.endpointPickerName, port: { number: options.endpointPickerPort } },
        },
      });
    case INFERENCE_POOL_V1ALPHA2:
      return new poolV1alpha2.InferencePool(scope, 'InferencePool', {
        metadata,
        spec: {
          selector: { ...options.selector },
          targetPortNumber: options.targetPort,
          extensionRef: { name: options.endpointPickerName, portNumber: options.endpointPickerPort },
        },
      });
    default:
      throw new Error(unsupportedApiVersion(options.apiVersion));
  }
}
