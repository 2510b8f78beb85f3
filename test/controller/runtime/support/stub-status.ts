import type { ObjectRef } from '../../../../src/controller/runtime/object-key';
import type { ComputeStatus } from '../../../../src/controller/runtime/record-reconciler';

/**
 * A stand-in for the status module in unit tests (same contract as `reconcileRecord` with the
 * catalog bound): the status of a record is read from the Deployment named by
 * `spec.statusFrom` (default: the record's name), plus its Gateway when `spec.gateway` names one.
 * The patch is undefined when the stored status already equals the computed one.
 */
export const stubComputeStatus: ComputeStatus = (record, lookup) => {
  const ns = record.metadata.namespace;
  const source: ObjectRef = record.spec?.statusFrom ?? { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: record.metadata.name };
  const watched: ObjectRef[] = [source];
  const upstream = lookup(source);
  const status: any = upstream
    ? { phase: upstream.status?.readyReplicas >= 1 ? 'Running' : 'Deploying', replicas: { ready: upstream.status?.readyReplicas ?? 0 } }
    : { phase: 'Pending' };
  if (record.spec?.gateway) {
    const ref: ObjectRef = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', namespace: record.spec.gateway.namespace, name: record.spec.gateway.name };
    watched.push(ref);
    status.gateway = lookup(ref) ? 'attached' : 'missing';
  }
  const patch = JSON.stringify(record.status ?? {}) === JSON.stringify(status) ? undefined : { status };
  return { status, ...(patch && { patch }), watched };
};

/** `isRenderedRecord` of the contract. */
export const stubIsRendered = (record: any): boolean => record?.metadata?.labels?.['inference.cdk8s.io/rendered-by'] === 'cdk8s-inference';
