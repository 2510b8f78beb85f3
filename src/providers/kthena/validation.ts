import { kthenaArgErrors } from './args';
import { kthenaAutoscalingErrors } from './autoscaling';
import { kthenaLoraErrors } from './lora';
import { kthenaMultiNodeFindings } from './multi-node';
import { validateKthenaOverrides } from './overrides';
import { KthenaRolePlan, kthenaRoles, servingGroupCount } from './roles';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { FieldError, forbidden, invalid, required } from '../../core/field-error';
import { controllerLabelErrors, imageErrors } from '../../kthena/checks';
import { servedModelErrors } from '../../kthena/model-server-rules';
import { generatedNameErrors } from '../../kthena/model-serving-rules';
import { multiNodeParallelismTarget } from '../../multinode/vllm-checks';
import { hasDeviceRequests } from '../../provider-kit/device-annotation';
import { checkParallelism, isParallelEngine, NO_PARALLELISM_FINDINGS, ParallelismFindings, ParallelismTarget, userParallelism } from '../../provider-kit/parallelism';

/*
 * What the Kthena provider refuses: everything Kthena's CRD schemas, CEL rules and webhooks would
 * refuse in the objects it synthesizes, reported on the ModelDeployment field that causes it.
 * Kthena's own rules are written once, in `src/kthena/` (Kthena's model), and called here with
 * the ModelDeployment's field paths; what stays here is about AI Runway's fields.
 * Kept apart from the translator so that the controller, which validates but never builds
 * objects, does not load cdk8s-plus-34.
 */

/** Human name of the provider in messages. */
export const KTHENA_DISPLAY_NAME = 'Kthena';

/** The engines Kthena's ModelServer knows (`inferenceEngine`), by our engine names. */
export const KTHENA_ENGINES: readonly string[] = ['vllm', 'sglang'];

/**
 * The targets whose Gateway API Inference Extension pool can route a prefill/decode deployment:
 * llm-d's endpoint picker pairs prefill and decode pods, Dynamo manages its own pool.
 */
export const GATEWAY_PREFILL_DECODE_TARGETS: readonly string[] = ['dynamo', 'llmd'];

function kthenaEngineNotSupported(engine: string): string {
  return `Kthena serves only the ${KTHENA_ENGINES.join(' and ')} engines (ModelServer inferenceEngine vLLM or SGLang), got ${engine}; ` +
    'choose another provider for it';
}

function gpuErrors(md: ResolvedModelDeployment, roles: readonly KthenaRolePlan[]): FieldError[] {
  if (md.mode === 'disaggregated') {
    const errors: FieldError[] = [];
    for (const component of ['prefill', 'decode'] as const) {
      if (!md.spec.scaling?.[component]) errors.push(required(`spec.scaling.${component}`, `spec.scaling.${component} is required for disaggregated serving mode`));
    }
    if (errors.length > 0) return errors;
  }
  return roles
    .filter((role) => !(role.gpuCount > 0))
    .map((role) => {
      const message = `Kthena runs ${md.engine} on GPUs: the ${role.name} role needs ${role.gpuPath}.count > 0`;
      const count = role.component ? md.spec.scaling?.[role.component]?.gpu?.count : md.spec.resources?.gpu?.count;
      return count === undefined || count === null ? required(`${role.gpuPath}.count`, message) : invalid(`${role.gpuPath}.count`, count, message);
    });
}

/**
 * Each prefill and decode role gangs at least one instance (`gangPolicy.minRoleReplicas` of 1,
 * see the translator), and Kthena's webhook refuses a minimum above the role's replicas; a
 * ServingGroup without prefill or without decode pods could not serve anyway.
 */
function roleReplicaErrors(md: ResolvedModelDeployment, roles: readonly KthenaRolePlan[]): FieldError[] {
  return roles
    .filter((role) => role.component !== undefined && md.spec.scaling?.[role.component] !== undefined && role.replicas < 1)
    .map((role) => invalid(
      role.replicasPath,
      role.replicas,
      'Kthena pairs prefill with decode pods inside one ServingGroup, which gang-schedules at least one instance of each role ' +
        `(gangPolicy.minRoleReplicas); the ${role.name} role needs at least 1 replica`,
    ));
}

function modelErrors(md: ResolvedModelDeployment): FieldError[] {
  const id = md.spec.model.id;
  if (!id) {
    return [required(
      'spec.model.id',
      `Kthena starts ${md.engine} with the model (${md.engine === 'sglang' ? '--model-path' : 'vllm serve <model>'}); ` +
        'with a custom source, set spec.model.id to the model path or id inside the image',
    )];
  }
  // The ModelServer's `spec.model` is the served name, else the id.
  if (md.spec.model.servedName) return servedModelErrors('spec.model.servedName', md.spec.model.servedName);
  return servedModelErrors('spec.model.id', id, '; set a shorter spec.model.servedName');
}

/** The engine container's image (`spec.engine.image`, else `spec.image`), by Kthena's webhook rule. */
function engineImageErrors(md: ResolvedModelDeployment): FieldError[] {
  const engineImage = md.spec.engine?.image;
  const path = engineImage ? 'spec.engine.image' : 'spec.image';
  return imageErrors(path, engineImage || md.spec.image || undefined);
}

/** The ModelServing's name rule, in the deployment's terms: its name, and the ServingGroups it can scale to. */
function deploymentNameErrors(md: ResolvedModelDeployment, servingGroups: number, roles: readonly KthenaRolePlan[]): FieldError[] {
  return generatedNameErrors('metadata.name', md.name, servingGroups, roles, {
    pattern: '<name>-<servingGroups>-<role>-<roleReplicas>-<workerReplicas>',
    shorter: 'a shorter ModelDeployment name',
  });
}

/**
 * The Gateway API Inference Extension's default endpoint picker sends each request to any pod of
 * the pool; prefill/decode serving needs a picker that pairs a prefill with a decode pod, which
 * Kthena does in its own router (the ModelRoute and ModelServer synthesized for it).
 */
function gatewayErrors(md: ResolvedModelDeployment): FieldError[] {
  if (md.mode !== 'disaggregated' || md.spec.gateway?.enabled !== true) return [];
  return [forbidden(
    'spec.gateway.enabled',
    'Gateway API Inference Extension routing of prefill/decode serving is not available on target kthena: Kthena routes it through ' +
      'kthena-router with the ModelRoute synthesized for the deployment; set spec.gateway.enabled to false, or choose a target that has it: ' +
      GATEWAY_PREFILL_DECODE_TARGETS.join(', '),
  )];
}

/**
 * The parallelism checks (`common/parallelism`) of each role's engine container: the role's GPUs,
 * from which the provider derives `--tensor-parallel-size` when there are several; `engine.args`
 * and `engine.extraArgs` both reach the engine. A multi-node role's engine spans the entry and
 * worker pods of an instance (`multiNodeParallelismTarget`). Overrides cannot replace the roles,
 * so they change nothing here.
 */
export function kthenaParallelism(md: ResolvedModelDeployment): ParallelismFindings {
  if (!isParallelEngine(md.engine) || !KTHENA_ENGINES.includes(md.engine)) return NO_PARALLELISM_FINDINGS;
  const multiNode = kthenaMultiNodeFindings(md);
  const targets = kthenaRoles(md)
    .map((role) => multiNodeParallelismTarget(md, multiNode, role.deviceComponent, {
      subject: `${KTHENA_DISPLAY_NAME} ${role.name} pods`,
      gpuPath: `${role.gpuPath}.count`,
      gpuCount: role.gpuCount,
      gpuType: role.gpuType,
      ...(role.gpuCount > 1 && { derivedTensorParallel: role.gpuCount }),
    }))
    .filter((t): t is ParallelismTarget => t !== undefined);
  return checkParallelism(md.engine, userParallelism(md.spec, md.engine, { extraArgs: true }), targets);
}

/**
 * The Kthena provider's checks, every problem reported:
 *
 * - the engine is vllm or sglang (`spec.engine.type`);
 * - GPUs for every role (`spec.resources.gpu.count`, or each component's), both components in
 *   disaggregated mode, each with at least one replica (`roleReplicaErrors`);
 * - a model id, and a served name the ModelServer can hold (`modelErrors`); an image Kthena's
 *   webhook accepts (`engineImageErrors`); no pod-template label among the controller's
 *   (`controllerLabelErrors`);
 * - the names Kthena derives from the deployment name, worker pods counted (`deploymentNameErrors`);
 * - multi-node replicas: vLLM only, a layout for each role that spans nodes (`kthenaMultiNodeFindings`);
 * - no Gateway API Inference Extension routing of prefill/decode serving (`gatewayErrors`);
 * - overrides (`validateKthenaOverrides`), launch flags (`kthenaArgErrors`) and the parallel
 *   layout of each role (`kthenaParallelism`).
 */
export function validateKthena(md: ResolvedModelDeployment): FieldError[] {
  if (!KTHENA_ENGINES.includes(md.engine)) return [invalid('spec.engine.type', md.engine, kthenaEngineNotSupported(md.engine))];
  const roles = kthenaRoles(md);
  const groups = servingGroupCount(md);
  return [
    ...gpuErrors(md, roles),
    ...roleReplicaErrors(md, roles),
    ...modelErrors(md),
    ...engineImageErrors(md),
    ...controllerLabelErrors('spec.podTemplate.metadata.labels', Object.keys(md.spec.podTemplate?.metadata?.labels ?? {})),
    ...deploymentNameErrors(md, groups, roles),
    ...gatewayErrors(md),
    ...validateKthenaOverrides(md.spec.provider?.overrides, roles, groups),
    ...kthenaArgErrors(md),
    ...kthenaMultiNodeFindings(md).errors,
    ...kthenaParallelism(md).errors,
    ...kthenaLoraErrors(md),
    ...kthenaAutoscalingErrors(md),
  ];
}

/** The name of kube-scheduler in `schedulerName`. */
const KUBE_SCHEDULER = 'default-scheduler';

/**
 * DRA claims are allocated by the scheduler that places the pod. kube-scheduler does; the
 * ModelServing's pods are placed by its `schedulerName` instead (Volcano by default), which must
 * have DRA support turned on, or the pods stay Pending with unallocated claims.
 */
function deviceClaimSchedulerWarning(md: ResolvedModelDeployment, schedulerName: string): string[] {
  if (!hasDeviceRequests(md.annotations) || schedulerName === KUBE_SCHEDULER) return [];
  return [
    `${KTHENA_DISPLAY_NAME} pods claim DRA devices and are placed by the scheduler ${JSON.stringify(schedulerName)} (ModelServing spec.schedulerName), ` +
      'not kube-scheduler: that scheduler must have DRA support enabled to allocate the claims, or the pods stay Pending',
  ];
}

/**
 * Kthena's warnings about a deployment it accepts: a multi-node annotation that made no role span
 * nodes, GPUs a role's layout leaves idle, and DRA claims left to a scheduler other than kube-scheduler.
 */
export function kthenaWarnings(md: ResolvedModelDeployment, schedulerName: string): string[] {
  return [...kthenaMultiNodeFindings(md).warnings, ...kthenaParallelism(md).warnings, ...deviceClaimSchedulerWarning(md, schedulerName)];
}
