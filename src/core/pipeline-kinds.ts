import type { UpstreamKind } from '../api/provider-status';
import { ROUTING_EMITTED_KINDS } from '../gateway/routing-kinds';

/** The ResourceClaimTemplates of a deployment's DRA device requests (src/dra/claim-templates.ts). */
export const DEVICE_CLAIM_TEMPLATE_KIND: UpstreamKind = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  resource: 'resourceclaimtemplates',
};

/**
 * Every kind the shared pipeline synthesizes beside a provider's own objects: the routing objects
 * and the DRA claim templates. With the providers' `emittedKinds()`, what a record can list as
 * rendered, and so what the controller's ClusterRole must cover to set ownerReferences.
 */
export const PIPELINE_EMITTED_KINDS: readonly UpstreamKind[] = [...ROUTING_EMITTED_KINDS, DEVICE_CLAIM_TEMPLATE_KIND];
