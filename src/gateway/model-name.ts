import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';

/** Request header the body-based router fills with the request body's `model`; routes match on it. */
export const MODEL_NAME_HEADER = 'X-Gateway-Model-Name';

/**
 * The model name the HTTPRoute matches in `X-Gateway-Model-Name` (§6.9), as far as it can be
 * known at build time, in AI Runway's order:
 * 1. `spec.gateway.modelName`;
 * 2. `spec.model.servedName`, unless the provider's capability for the engine says the served
 *    name is not honoured (`ignoresServedName`, e.g. llama.cpp serving under its model file);
 * 3. (run time only) the first id listed by the running server's `/v1/models`;
 * 4. `spec.model.id`.
 *
 * Step 3 is skipped: it needs the model server to be up and reachable inside the cluster, which
 * it never is while synthesizing. Where the engine serves under the model id (every engine when no
 * served name is passed) the answer is the same; a custom image that serves under another name
 * needs `gateway.modelName`.
 *
 * Returns `undefined` when none of these is set (a custom source without a model id or names), so
 * that the caller can report the missing field.
 */
export function routedModelName(spec: ModelDeploymentSpec, ignoresServedName: boolean): string | undefined {
  return routedModelNameSource(spec, ignoresServedName)?.name;
}

/** `routedModelName` and the spec field it came from, for messages about it. */
export function routedModelNameSource(spec: ModelDeploymentSpec, ignoresServedName: boolean): { name: string; field: string } | undefined {
  // Empty strings count as unset, as in Go where "" is the zero value.
  if (spec.gateway?.modelName) return { name: spec.gateway.modelName, field: 'spec.gateway.modelName' };
  // Also for a custom source, where admission warns that the container ignores servedName: AI
  // Runway still routes on it, and so do we.
  if (spec.model.servedName && !ignoresServedName) return { name: spec.model.servedName, field: 'spec.model.servedName' };
  return spec.model.id ? { name: spec.model.id, field: 'spec.model.id' } : undefined;
}

/** Longest value a Gateway API header match takes (HTTPHeaderMatch `value`): the routed name's limit. */
export const MAX_ROUTED_MODEL_NAME_LENGTH = 4096;
