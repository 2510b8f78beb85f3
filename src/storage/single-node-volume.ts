import type { ApiObject } from 'cdk8s';
import { autoscalingOf, AUTOSCALING_ANNOTATION_PATH } from '../api/autoscaling/autoscaling-annotation';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { resolvedClaimName } from '../core/model-deployment-object';

/** Access modes that bind a claim to one node (`ReadWriteOnce`) or to one pod (`ReadWriteOncePod`). */
const SINGLE_NODE_MODES: readonly string[] = ['ReadWriteOnce', 'ReadWriteOncePod'];

/** How many model-server pods may run at once, and the field that says so; undefined for at most one. */
function concurrentPods(md: ResolvedModelDeployment): { count: number; because: string } | undefined {
  const scaling = md.spec.scaling;
  if (md.mode === 'disaggregated') {
    const prefill = scaling?.prefill?.replicas ?? 1;
    const decode = scaling?.decode?.replicas ?? 1;
    return { count: prefill + decode, because: `spec.scaling.prefill.replicas + spec.scaling.decode.replicas: ${prefill} + ${decode} pods` };
  }
  const autoscaling = autoscalingOf(md.annotations);
  if (autoscaling && autoscaling.maxReplicas > 1) {
    return { count: autoscaling.maxReplicas, because: `${AUTOSCALING_ANNOTATION_PATH}.maxReplicas: up to ${autoscaling.maxReplicas} replicas` };
  }
  const replicas = scaling?.replicas ?? 1;
  return replicas > 1 ? { count: replicas, because: `spec.scaling.replicas: ${replicas}` } : undefined;
}

/**
 * Warnings for a managed volume whose synthesized PersistentVolumeClaim is ReadWriteOnce or
 * ReadWriteOncePod while more than one model-server pod may run: a ReadWriteOnce volume attaches
 * to one node, so a pod scheduled on another node waits in ContainerCreating (Multi-Attach
 * error); a ReadWriteOncePod volume admits a single pod anywhere. Only claims the provider really
 * synthesized are checked (`objects`), so a provider that ignores the volume or turns it into
 * something else (llm-d, KAITO, modelplane's ModelCache) gets no warning. Multi-node replicas are
 * not considered here: a single-node access mode is already an error for them.
 */
export function singleNodeVolumeWarnings(md: ResolvedModelDeployment, objects: readonly ApiObject[]): string[] {
  const pods = concurrentPods(md);
  if (!pods) return [];
  const claims = new Map<string, string[]>();
  for (const o of objects) {
    if (o.kind !== 'PersistentVolumeClaim' || o.apiVersion !== 'v1') continue;
    claims.set(o.name, o.toJson().spec?.accessModes ?? []);
  }
  const warnings: string[] = [];
  (md.spec.model.storage?.volumes ?? []).forEach((volume, i) => {
    const claim = resolvedClaimName(md.name, volume);
    const mode = (claims.get(claim) ?? []).find((m) => SINGLE_NODE_MODES.includes(m));
    if (mode === undefined) return;
    const binds = mode === 'ReadWriteOncePod'
      ? 'a ReadWriteOncePod volume is mounted by one pod at a time, so every other pod waits'
      : 'a ReadWriteOnce volume attaches to one node, so pods scheduled on other nodes wait in ContainerCreating (Multi-Attach error)';
    warnings.push(
      `spec.model.storage.volumes[${i}].accessMode is ${mode}, but the claim ${claim} is shared by several model-server pods (${pods.because}): ${binds}; ` +
        'use accessMode ReadWriteMany (with a storage class that supports it, or ReadOnlyMany for a pre-filled cache), or one volume per replica (one deployment each)',
    );
  });
  return warnings;
}
