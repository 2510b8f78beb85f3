import { kuberayEngineKwargs } from './args';
import { kuberayAutoscalingErrors } from './autoscaling';
import { kuberayLayout, kuberayMultiNode, kuberayMultiNodeErrors } from './multi-node';
import { kuberayIgnoredOverridesWarning } from './overrides';
import { AGGREGATED_WORKER_GROUP, kuberayGpusPerWorker, workerGroupPlans } from './worker-groups';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, invalid, required } from '../../core/field-error';
import { multiNodeParallelismTarget } from '../../multinode/vllm-checks';
import {
  checkParallelism,
  NO_PARALLELISM_FINDINGS,
  ParallelismFindings,
  userParallelism,
} from '../../provider-kit/parallelism';

/*
 * What the KubeRay provider refuses: its checks of a deployment and their messages. Kept apart
 * from the translator so that the controller, which validates but never builds objects, does not
 * load cdk8s-plus-34 or the generated RayService bindings.
 */

/** Human name of the provider in messages. */
export const KUBERAY_DISPLAY_NAME = 'KubeRay';

/** Controller rejection of a deployment without GPUs. */
export const KUBERAY_GPU_REQUIRED = 'KubeRay requires GPU (set resources.gpu.count > 0)';

/** Controller rejection of an engine other than vLLM. */
export function kuberayEngineNotSupported(engine: string): string {
  return `KubeRay only supports vllm engine, got ${engine}`;
}

/**
 * AI Runway's GPU rule for KubeRay (the same as Dynamo's): `resources.gpu.count > 0`, or, in
 * disaggregated mode, `scaling.prefill.gpu.count > 0`.
 */
function hasGpu(md: ResolvedModelDeployment): boolean {
  if ((md.spec.resources?.gpu?.count ?? 0) > 0) return true;
  return md.mode === 'disaggregated' && (md.spec.scaling?.prefill?.gpu?.count ?? 0) > 0;
}

/**
 * The KubeRay controller's rejections, as field errors with AI Runway's exact messages:
 *
 * - the resolved engine is not vllm → `spec.engine.type`;
 * - no GPU → `spec.resources.gpu.count` (aggregated), or `spec.scaling.prefill.gpu.count`
 *   (disaggregated, where admission forbids the top-level count and the prefill count is what
 *   the rule looks at); Required when the count is absent, Invalid when it is 0.
 *
 * Overrides are not validated: KubeRay does not apply them, and `kuberayWarnings` names them.
 */
export function validateKubeRay(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  if (md.engine !== 'vllm') {
    errors.push(invalid('spec.engine.type', md.engine, kuberayEngineNotSupported(md.engine)));
  }
  if (!hasGpu(md)) {
    const path = md.mode === 'disaggregated' ? 'spec.scaling.prefill.gpu.count' : 'spec.resources.gpu.count';
    const count = md.mode === 'disaggregated' ? md.spec.scaling?.prefill?.gpu?.count : md.spec.resources?.gpu?.count;
    errors.push(count === undefined || count === null ? required(path, KUBERAY_GPU_REQUIRED) : invalid(path, count, KUBERAY_GPU_REQUIRED));
  }
  if (md.engine === 'vllm') errors.push(...kuberayEngineKwargErrors(md));
  errors.push(...kuberayMultiNodeErrors(md));
  errors.push(...kuberayParallelism(md).errors);
  errors.push(...kuberayAutoscalingErrors(md));
  return errors;
}

/**
 * The engine settings Ray Serve LLM cannot pass to vLLM's engine: a token that is not an option, an
 * option vLLM does not have, a value of the wrong type (`./engine-kwargs`); one error per field,
 * the first the engine arguments of any Serve config find.
 */
function kuberayEngineKwargErrors(md: ResolvedModelDeployment): FieldError[] {
  const multiNode = md.mode === 'aggregated' ? kuberayLayout(md) : undefined;
  const runs = md.mode === 'disaggregated'
    ? workerGroupPlans(md).map((p) => kuberayEngineKwargs(md.spec, { gpusPerWorker: p.gpuCount, role: p.component === 'prefill' ? 'prefill' : 'decode' }))
    : [kuberayEngineKwargs(md.spec, { gpusPerWorker: kuberayGpusPerWorker(md), ...(multiNode && { multiNode }) })];
  const seen = new Set<string>();
  return runs.flatMap((r) => r.errors).filter((e) => !seen.has(e.path) && seen.add(e.path) !== undefined);
}

/**
 * The parallelism checks (`common/parallelism`) of the vLLM engine of each Serve replica. Its
 * engine arguments (`kuberayEngineTokens`): the tensor parallel size derived from the GPUs of a
 * worker pod, then `engine.args` and `engine.extraArgs`, which win.
 *
 * - aggregated: one Serve replica per worker pod of `gpu-workers`, so each replica's ranks must
 *   fit the GPUs of one pod and use all of them: the per-pod rules, exactly (Ray could spread a
 *   replica over pods, but with as many replicas as pods the GPUs only add up when none does);
 *   a multi-node replica instead spans its group of worker pods (as many groups as replicas),
 *   whose GPUs add up, with the layout's sizes as what the provider renders
 *   (`multiNodeParallelismTarget`; nothing is checked without a layout, whose errors say why);
 * - disaggregated: a prefill and a decode Serve deployment, one replica per pod of its worker
 *   group, each engine with the tensor parallel size of its group's pods: the per-pod rules, per
 *   group.
 */
export function kuberayParallelism(md: ResolvedModelDeployment): ParallelismFindings {
  if (md.engine !== 'vllm') return NO_PARALLELISM_FINDINGS;
  const user = userParallelism(md.spec, md.engine, { extraArgs: true });
  const plans = workerGroupPlans(md);
  const perWorker = kuberayGpusPerWorker(md);
  const derivedTensorParallel = perWorker > 1 ? perWorker : undefined;
  if (md.mode !== 'disaggregated') {
    const plan = plans[0];
    const target = multiNodeParallelismTarget(md, { multiNode: kuberayMultiNode(md) }, 'resources', {
      subject: `${KUBERAY_DISPLAY_NAME} worker pods (${AGGREGATED_WORKER_GROUP})`,
      gpuPath: 'spec.resources.gpu.count',
      gpuCount: plan.gpuCount,
      gpuType: plan.gpuResource,
      ...(derivedTensorParallel !== undefined && { derivedTensorParallel }),
    });
    return checkParallelism(md.engine, user, target ? [target] : []);
  }
  // Each role's engine takes the GPUs of one pod of its own worker group (one replica per pod).
  return checkParallelism(md.engine, user, plans.map((p) => ({
    subject: `${KUBERAY_DISPLAY_NAME} ${p.component} worker pods (${p.groupName})`,
    gpuPath: `spec.scaling.${p.component}.gpu.count`,
    gpuCount: p.gpuCount,
    gpuType: p.gpuResource,
    ...(p.gpuCount > 1 && { derivedTensorParallel: p.gpuCount }),
  })));
}

/**
 * KubeRay's warnings about a deployment it accepts: overrides it ignores
 * (`kuberayIgnoredOverridesWarning`), a multi-node annotation that made no replica span worker
 * pods, and GPUs a worker pod's layout leaves idle. Warnings of the provider rather than of the
 * RayService, so the CLI's validate and the controller's record check report them too.
 */
export function kuberayWarnings(md: ResolvedModelDeployment): string[] {
  const overrides = kuberayIgnoredOverridesWarning(md.spec.provider?.overrides);
  return [...overrides ? [overrides] : [], ...kuberayMultiNode(md)?.warnings ?? [], ...kuberayParallelism(md).warnings];
}
