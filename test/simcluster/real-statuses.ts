/**
 * Upstream statuses as the real components of the simulated cluster write them — the deployment
 * controller of kube-controller-manager (Deployments whose pods KWOK runs or the scheduler cannot
 * place) and the KubeRay operator (RayServices) — captured by controller.test.ts and committed as
 * test/fixtures/operator-statuses/real-statuses.json, which the status tests elsewhere read
 * through test/support/operator-statuses.ts.
 *
 * What varies from one run to the next is normalized, so the committed file is stable and a fresh
 * capture compares equal to it unless a component (or what we send it) changed:
 * - timestamps (`lastTransitionTime`, `lastUpdateTime`, ...) become CONDITION_TIME;
 * - a ReplicaSet's pod-template hash (it follows the pod template we synthesize) becomes
 *   POD_TEMPLATE_HASH, the random suffixes of a RayService's RayCluster and head pod
 *   RAY_CLUSTER_SUFFIX and HEAD_POD_SUFFIX;
 * - the time KubeRay measured in its initializing-timeout message becomes the configured timeout.
 */
import * as fs from 'fs';
import * as path from 'path';
import { RealStatuses, REAL_STATUSES_FILE } from '../support/operator-statuses';
import { CONDITION_TIME } from '../support/status-conditions';

/** The replica counts Deployment statuses are captured for (those the status tests use). */
export const DEPLOYMENT_REPLICA_COUNTS = [1, 2, 3] as const;

/** Stands for the pod-template hash the deployment controller appends to a ReplicaSet's name. */
export const POD_TEMPLATE_HASH = '7d9f8c6b5';
/** Stands for the random suffix KubeRay gives a RayService's RayCluster. */
export const RAY_CLUSTER_SUFFIX = 'x7k2p';
/** Stands for the random suffix of the RayCluster's head pod. */
export const HEAD_POD_SUFFIX = 'h4d9q';

/** One stage of a Deployment's or RayService's life, as its controller wrote it. */
export type Stage = 'deploying' | 'running' | 'failed';

const TIME_FIELDS = new Set(['lastTransitionTime', 'lastUpdateTime', 'lastProbeTime', 'lastUpdatedTime', 'startTime']);

/** Whose derived names appear in a status: a Deployment's ReplicaSets, a RayService's RayClusters. */
export interface StatusOwner {
  readonly deployment?: string;
  readonly rayService?: string;
}

/** The status with what varies between runs normalized (see the file comment). */
export function normalizeStatus(status: unknown, owner: StatusOwner): unknown {
  const rewrite = (s: string): string => {
    let out = s;
    // `<deployment>-<pod-template-hash>`, `<rayservice>-<5 random characters>`.
    if (owner.deployment) out = out.replace(new RegExp(`\\b${escapeRegExp(owner.deployment)}-[a-z0-9]{4,10}\\b`, 'g'), `${owner.deployment}-${POD_TEMPLATE_HASH}`);
    if (owner.rayService) {
      out = out
        .replace(new RegExp(`\\b${escapeRegExp(owner.rayService)}-[a-z0-9]{5}\\b`, 'g'), `${owner.rayService}-${RAY_CLUSTER_SUFFIX}`)
        .replace(new RegExp(`\\b(${escapeRegExp(owner.rayService)}-${RAY_CLUSTER_SUFFIX}-head)-[a-z0-9]{5}\\b`, 'g'), `$1-${HEAD_POD_SUFFIX}`);
    }
    // "... within the configured timeout of 15s. Time spent initializing: 16.203s": the second
    // figure is when the operator's next reconcile ran.
    return out.replace(/timeout of (\S+)\. Time spent initializing: \S+/, 'timeout of $1. Time spent initializing: $1');
  };
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return key && TIME_FIELDS.has(key) ? CONDITION_TIME : rewrite(v);
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x, k)]));
    }
    return v;
  };
  return walk(status);
}

export function writeRealStatuses(statuses: RealStatuses): void {
  fs.mkdirSync(path.dirname(REAL_STATUSES_FILE), { recursive: true });
  fs.writeFileSync(REAL_STATUSES_FILE, JSON.stringify(statuses, null, 2) + '\n');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
