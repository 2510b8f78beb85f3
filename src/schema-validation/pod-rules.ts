/**
 * The API server's Go-side rules for pods, applied wherever a pod spec sits in an object: a
 * Deployment's or Job's template, a LeaderWorkerSet's, a RayService's head and worker groups, a
 * Kthena ModelServing's roles, a Dynamo service's `extraPodSpec`. Custom resources embed the core
 * PodSpec, and their operators create pods from it, so a pod the API server would refuse fails
 * there, later and out of sight. A pod spec is recognised by its shape (a `containers` list, or
 * Dynamo's `mainContainer`), not by its path, so every embedding is covered.
 *
 * - tolerations (tolerations.ts);
 * - environment variable names of every container (env-var-names.ts);
 * - every volume mount names a volume of the pod (volume-mounts.ts), except for Dynamo's
 *   `mainContainer`, whose operator adds volumes of its own.
 * Label keys and values (`metadata.labels`, `nodeSelector`, `matchLabels`) are kubernetes-names.ts'.
 */
import { checkEnvVarNames } from './env-var-names';
import { checkTolerations } from './tolerations';
import { checkVolumeMounts } from './volume-mounts';
import { joinPath, Report, WalkedPlace, walkedPath } from '../core/field-path';

type Json = any;

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

/** Reports the pod rules every pod spec found in `obj` breaks. Iterative: objects may be deep. */
export function checkPodRules(obj: Json, report: Report): void {
  const stack: Array<[Json, WalkedPlace | undefined]> = [[obj, undefined]];
  while (stack.length > 0) {
    const [node, place] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (item && typeof item === 'object') stack.push([item, { above: place, segment: i }]);
      });
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node.containers)) {
      checkPodSpec(node, walkedPath('', place), report, true);
    } else if (node.mainContainer && typeof node.mainContainer === 'object') {
      checkPodSpec(node, walkedPath('', place), report, false);
    }
    for (const [k, v] of Object.entries(node)) {
      if (v && typeof v === 'object') stack.push([v, { above: place, segment: k }]);
    }
  }
}

function checkPodSpec(podSpec: Json, at: string, report: Report, checkMounts: boolean): void {
  checkTolerations(podSpec.tolerations, joinPath(at, 'tolerations', false), report);
  for (const list of CONTAINER_LISTS) {
    (Array.isArray(podSpec[list]) ? podSpec[list] : []).forEach((c: Json, i: number) => {
      checkEnvVarNames(c?.env, joinPath(joinPath(joinPath(at, list, false), String(i), true), 'env', false), report);
    });
  }
  if (podSpec.mainContainer && typeof podSpec.mainContainer === 'object') {
    checkEnvVarNames(podSpec.mainContainer.env, joinPath(joinPath(at, 'mainContainer', false), 'env', false), report);
  }
  if (checkMounts) checkVolumeMounts(podSpec, at, report);
}
