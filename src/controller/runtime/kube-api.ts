/**
 * The part of the Kubernetes API the controller uses. `kube-client.ts` implements it over HTTPS
 * against a real API server; the unit tests implement it in memory. Only plain JSON crosses this
 * interface, so nothing else in the runtime depends on how requests are sent or authenticated.
 */

/** A namespaced resource: how to address it (`apiVersion`, `resource`) and what its objects are (`kind`). */
export interface ResourceKind {
  /** e.g. `apps/v1`, or `v1` for the core group. */
  readonly apiVersion: string;
  /** e.g. `Deployment`. */
  readonly kind: string;
  /** The plural resource name, e.g. `deployments`. */
  readonly resource: string;
}

/** Which objects of a kind to list or watch. */
export interface SelectOptions {
  /** Only this namespace. @default - all namespaces */
  readonly namespace?: string;
  /** A label selector, e.g. `airunway.ai/managed-by=airunway`. @default - every object */
  readonly labelSelector?: string;
  /** A field selector, e.g. `metadata.name=x` (one object, which RBAC `resourceNames` can authorize). @default - every object */
  readonly fieldSelector?: string;
}

export interface ListOptions extends SelectOptions {
  /** Page size. @default - the server's (no paging) */
  readonly limit?: number;
  /** Continue token of the previous page. */
  readonly continue?: string;
}

/** One page of a list. */
export interface ObjectList {
  /** The list's `metadata.resourceVersion`: where a watch following it starts. */
  readonly resourceVersion: string;
  /** Token for the next page; empty or undefined on the last one. */
  readonly continue?: string;
  readonly items: any[];
}

export interface WatchOptions extends SelectOptions {
  /** Changes after this version are delivered. */
  readonly resourceVersion: string;
  /** Ask for BOOKMARK events (progress notifications carrying only a resourceVersion). */
  readonly allowWatchBookmarks: boolean;
  /** The server closes the watch after this long (a normal end: watch again from the last version). */
  readonly timeoutSeconds: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One event of a watch stream; for ERROR, `object` is a `metav1.Status` (410 Gone: the version expired). */
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: any;
}

export interface WatchHandlers {
  /** Each event, in order. */
  onEvent(event: WatchEvent): void;
  /**
   * The stream ended: `error` undefined when the server closed it normally (timeout), else why
   * it failed (a `KubeApiError` with the status code when the server refused it). Called once,
   * and not after `stop()`.
   */
  onClose(error?: Error): void;
}

/** A running watch. */
export interface WatchHandle {
  /** Closes the stream; no handler is called afterwards. */
  stop(): void;
}

/**
 * The API calls of the controller. Every method rejects with a `KubeApiError` when the server
 * answers with an error status, or with another `Error` when it could not be reached.
 */
export interface KubeApi {
  /** One page of objects of `kind`. */
  list(kind: ResourceKind, options: ListOptions): Promise<ObjectList>;
  /** Starts a watch of `kind`; events and the end of the stream go to `handlers`. */
  watch(kind: ResourceKind, options: WatchOptions, handlers: WatchHandlers): WatchHandle;
  /** Reads one object (404 when it does not exist). */
  get(kind: ResourceKind, namespace: string, name: string): Promise<any>;
  /** Creates `body` (409 AlreadyExists when it exists). */
  create(kind: ResourceKind, namespace: string, body: any): Promise<any>;
  /** Replaces the object `body` names; `metadata.resourceVersion` must be current (else 409 Conflict). */
  replace(kind: ResourceKind, namespace: string, body: any): Promise<any>;
  /**
   * Merge-patches (`application/merge-patch+json`) the object; a `metadata.resourceVersion` in
   * the patch is a precondition (409 Conflict when the object changed).
   */
  patch(kind: ResourceKind, namespace: string, name: string, mergePatch: any): Promise<any>;
  /** Merge-patches (`application/merge-patch+json`) the object's `status` subresource. */
  patchStatus(kind: ResourceKind, namespace: string, name: string, mergePatch: any): Promise<any>;
}

/** An error status answered by the API server. */
export class KubeApiError extends Error {
  public constructor(
    /** HTTP status code: 404, 409, 410, ... */
    public readonly statusCode: number,
    message: string,
    /** `metav1.Status` reason, e.g. `NotFound`, `Conflict`, `Expired`. */
    public readonly reason?: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

/** The HTTP status of an API error, if `e` is one. */
export function statusCodeOf(e: unknown): number | undefined {
  return e instanceof KubeApiError ? e.statusCode : typeof (e as any)?.statusCode === 'number' ? (e as any).statusCode : undefined;
}

export const isNotFound = (e: unknown): boolean => statusCodeOf(e) === 404;
export const isConflict = (e: unknown): boolean => statusCodeOf(e) === 409;
export const isGone = (e: unknown): boolean => statusCodeOf(e) === 410;

/** A `KubeApiError` from a `metav1.Status` object (an error response body or an ERROR watch event). */
export function errorFromStatus(status: any, fallbackCode: number): KubeApiError {
  const code = typeof status?.code === 'number' ? status.code : fallbackCode;
  const message = typeof status?.message === 'string' && status.message ? status.message : `HTTP ${code}`;
  return new KubeApiError(code, message, typeof status?.reason === 'string' ? status.reason : undefined);
}

/** The ModelDeployment records. */
export const MODEL_DEPLOYMENT_KIND: ResourceKind = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', resource: 'modeldeployments' };

/** Leases for leader election. */
export const LEASE_KIND: ResourceKind = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', resource: 'leases' };

/** The path of a collection (`/apis/apps/v1/namespaces/ns/deployments`) or, with `name`, an object in it. */
export function resourcePath(kind: ResourceKind, namespace?: string, name?: string): string {
  const prefix = kind.apiVersion.includes('/') ? `/apis/${kind.apiVersion}` : `/api/${kind.apiVersion}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix}${ns}/${kind.resource}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}
