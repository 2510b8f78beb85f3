import type { k8s } from 'cdk8s-plus-34';
import { tolerationsOf } from './pod-template';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { coversToleration, gpuTaintToleration, toleratesGpuTaint } from '../core/gpu-taint-toleration';

/** The GPUs one pod requests (all its containers together). */
export interface PodGpus {
  readonly count: number;
  readonly gpuType: string;
}

/**
 * Tolerations of a pod: `spec.tolerations` as given, then, unless the deployment opts out
 * (`inference.cdk8s.io/tolerate-gpu-taint: "false"`), when the pod requests or claims GPUs, the toleration of
 * the GPU taint of each type it requests, unless an earlier toleration already covers it (the
 * user's own `nvidia.com/gpu` Exists toleration, say). Pods without GPUs get the user's only: the
 * taint exists to keep them off GPU nodes. Undefined when there are none, so the field is omitted.
 */
export function podTolerations(md: ResolvedModelDeployment, gpus: readonly PodGpus[]): k8s.Toleration[] | undefined {
  const tolerations = [...(tolerationsOf(md) ?? [])];
  if (toleratesGpuTaint(md.annotations)) {
    for (const g of gpus) {
      if (g.count <= 0) continue;
      const wanted = gpuTaintToleration(g.gpuType);
      if (!tolerations.some((t) => coversToleration(t, wanted))) tolerations.push({ ...wanted });
    }
  }
  return tolerations.length > 0 ? tolerations : undefined;
}
