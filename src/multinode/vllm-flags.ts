/**
 * The vLLM flags of a multi-node replica's leader: the layout's tensor and pipeline parallel
 * sizes and the Ray executor, which is how one vLLM server uses GPUs on other pods (its default
 * multiprocessing executor sees only its own node's). Pure, so the controller runs the checks.
 */
import { MULTI_NODE_ANNOTATION_PATH } from '../api/multi-node/multi-node-annotation';
import { extraArgFlagKey } from '../core/engine-args';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import type { MultiNodeLayout } from '../provider-kit/multi-node-layout';

/** The vLLM option choosing how the engine starts its ranks. */
export const EXECUTOR_BACKEND_KEY = 'distributed-executor-backend';

/** The executor a multi-node replica needs: Ray, whose cluster spans the group's pods. */
export const RAY_EXECUTOR = 'ray';

/**
 * `--tensor-parallel-size`, `--pipeline-parallel-size` and `--distributed-executor-backend ray`,
 * each left out when its key is in `explicit` (the user writes it; the layout was computed from
 * the user's value, and the executor check insists on `ray`).
 */
export function multiNodeVllmFlags(layout: MultiNodeLayout, explicit: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  if (!explicit.has('tensor-parallel-size')) out.push('--tensor-parallel-size', String(layout.tensorParallel));
  if (!explicit.has('pipeline-parallel-size')) out.push('--pipeline-parallel-size', String(layout.pipelineParallel));
  if (!explicit.has(EXECUTOR_BACKEND_KEY)) out.push(`--${EXECUTOR_BACKEND_KEY}`, RAY_EXECUTOR);
  return out;
}

/** Whether `key` spells the executor option (vLLM reads underscores as dashes). */
function isExecutorKey(key: string): boolean {
  return key.replace(/_/g, '-') === EXECUTOR_BACKEND_KEY;
}

/**
 * A user executor other than Ray on a multi-node replica: vLLM's other executors run every rank
 * on the leader's node, which has a fraction of the GPUs, so the server would never start.
 */
export function executorBackendErrors(spec: ModelDeploymentSpec): FieldError[] {
  const errors: FieldError[] = [];
  const message = (value: string) =>
    `a multi-node replica (${MULTI_NODE_ANNOTATION_PATH}) needs vLLM's Ray executor, whose cluster spans the replica's pods; ` +
    `"${value}" runs every rank on one node: remove the option or set it to "${RAY_EXECUTOR}"`;
  for (const [key, value] of Object.entries(spec.engine?.args ?? {})) {
    if (isExecutorKey(key) && value !== RAY_EXECUTOR) errors.push(invalid(`spec.engine.args.${key}`, value, message(value)));
  }
  const tokens = spec.engine?.extraArgs ?? [];
  tokens.forEach((token, i) => {
    const key = extraArgFlagKey(token);
    if (key === undefined || !isExecutorKey(key)) return;
    const eq = token.indexOf('=');
    const value = eq >= 0 ? token.slice(eq + 1) : tokens[i + 1] ?? '';
    if (value !== RAY_EXECUTOR) errors.push(invalid(`spec.engine.extraArgs[${eq >= 0 ? i : i + 1}]`, eq >= 0 ? token : value, message(value)));
  });
  return errors;
}
