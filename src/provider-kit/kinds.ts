import type { UpstreamKind } from '../api/provider/provider-status';

/*
 * The core kinds the shipped providers create, for their `emittedKinds()`.
 */
export const DEPLOYMENT_KIND: UpstreamKind = { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' };
export const SERVICE_KIND: UpstreamKind = { apiVersion: 'v1', kind: 'Service', resource: 'services' };
export const PERSISTENT_VOLUME_CLAIM_KIND: UpstreamKind = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims' };
export const JOB_KIND: UpstreamKind = { apiVersion: 'batch/v1', kind: 'Job', resource: 'jobs' };
