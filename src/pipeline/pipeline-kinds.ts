import type { UpstreamKind } from '../api/provider/provider-status';
import { ROUTING_EMITTED_KINDS } from '../gateway/routing-kinds';

/** The ResourceClaimTemplates of a deployment's DRA device requests (src/dra/claim-templates.ts). */
export const DEVICE_CLAIM_TEMPLATE_KIND: UpstreamKind = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  resource: 'resourceclaimtemplates',
};

/** The autoscaler objects of a deployment (src/autoscaling/autoscaler-objects.ts). */
export const AUTOSCALER_KINDS: readonly UpstreamKind[] = [
  { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', resource: 'scaledobjects' },
  { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers' },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', resource: 'podmonitors' },
];

/**
 * Every kind the shared pipeline synthesizes beside a provider's own objects: the routing objects
 * the DRA claim templates and the autoscaler objects. With the providers' `emittedKinds()`, what a record can list as
 * rendered, and so what the controller's ClusterRole must cover to set ownerReferences.
 */
export const PIPELINE_EMITTED_KINDS: readonly UpstreamKind[] = [...ROUTING_EMITTED_KINDS, DEVICE_CLAIM_TEMPLATE_KIND, ...AUTOSCALER_KINDS];
