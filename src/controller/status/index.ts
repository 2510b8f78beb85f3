/**
 * The controller's status logic: pure functions from a rendered ModelDeployment record and the
 * objects it depends on to the record's `status` and the patch that writes it.
 */
export type { ObjectRef, ObjectLookup } from './object-ref';
export type { RecordReconcile } from './reconcile-record';
export { reconcileRecord } from './reconcile-record';
export { isRenderedRecord } from './rendered-record';
