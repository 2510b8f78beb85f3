/**
 * The arithmetic of a multi-node replica: how one engine of `gpu.count` GPUs (its world size) is
 * split over pods of `gpusPerNode` GPUs each. Pure, and free of cdk8s-plus-34 and the generated
 * bindings, so the controller's re-validation of a record runs it too.
 *
 * The tensor- and pipeline-parallel sizes are read as the engine reads them
 * (`common/parallelism.ts`: the user's last flag wins). Unset sizes are derived:
 *
 * | set by the user | tensor parallel (TP) | pipeline parallel (PP) |
 * |---|---|---|
 * | neither | gpusPerNode | gpus / gpusPerNode |
 * | TP | as set | gpus / TP |
 * | PP | gpus / PP | as set |
 * | both | as set | as set |
 *
 * and then TP × PP must equal the replica's GPUs (one rank per GPU: more ranks than GPUs never
 * start, fewer leave whole GPUs idle on nodes that were reserved for them), the GPUs must fill
 * whole nodes (each pod takes `gpusPerNode` GPUs of its node), and a tensor-parallel group must
 * sit inside one node or span whole nodes (TP divides `gpusPerNode`, or is a multiple of it):
 * vLLM places ranks node by node, so any other TP leaves a group straddling part of a node, where
 * every all-reduce crosses the network for some ranks and not others. The group size (pods per
 * replica, the LeaderWorkerSet's `size`) is then `gpus / gpusPerNode` — the world size over the
 * GPUs of a node, not the pipeline size: a TP group spanning two nodes makes a group of two pods
 * even with PP 1, which a count of pipeline stages would miss.
 */
import { ParallelEngine, ParallelFlag, userParallelism } from './parallelism';
import { GPUS_PER_NODE_PATH, multiNodeSettings, MULTI_NODE_ANNOTATION_PATH } from '../api/multi-node/multi-node-annotation';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { gpuTypeOf, isMigGpuType } from '../core/gpu-type';
import { resolvedServingMode } from '../core/model-deployment-object';

/** The pods a `gpu` block sizes: the aggregated serving pods, or one disaggregated component's. */
export type ServingComponent = 'resources' | 'prefill' | 'decode';

/** The components a deployment's serving mode runs. */
export function servingComponents(spec: ModelDeploymentSpec): readonly ServingComponent[] {
  return resolvedServingMode(spec) === 'disaggregated' ? ['prefill', 'decode'] : ['resources'];
}

/** Path of a component's GPU count: `spec.resources.gpu.count`, `spec.scaling.prefill.gpu.count`. */
export function gpuCountPath(component: ServingComponent): string {
  return component === 'resources' ? 'spec.resources.gpu.count' : `spec.scaling.${component}.gpu.count`;
}

/** A component's `gpu` block. */
function gpuOf(spec: ModelDeploymentSpec, component: ServingComponent) {
  return component === 'resources' ? spec.resources?.gpu : spec.scaling?.[component]?.gpu;
}

/** A user's parallel-size flag as the layout needs it: its size and where it was written. */
export interface LayoutFlag {
  readonly size: number;
  /** `spec.engine.args.tensor-parallel-size`, `spec.engine.extraArgs[3]`. */
  readonly path: string;
  /** What is at `path`, for the message. */
  readonly pathValue: string;
  /** The option as written (`tensor-parallel-size`, `-tp`), for the message. */
  readonly written: string;
}

/** What the arithmetic takes. */
export interface LayoutInput {
  /** GPUs of one replica (the engine's world size). */
  readonly gpus: number;
  /** Where `gpus` is set. */
  readonly gpuPath: string;
  readonly gpusPerNode: number;
  readonly tensorParallel?: LayoutFlag;
  readonly pipelineParallel?: LayoutFlag;
}

/** How one multi-node replica runs. */
export interface MultiNodeLayout {
  readonly gpus: number;
  readonly gpusPerNode: number;
  readonly tensorParallel: number;
  readonly pipelineParallel: number;
  /** Pods per replica: the LeaderWorkerSet's `size`, Dynamo's `nodeCount`. */
  readonly groupSize: number;
}

/** The layout, or why there is none. */
export interface LayoutResult {
  readonly layout?: MultiNodeLayout;
  readonly errors: FieldError[];
}

/** Tensor parallel sizes that place whole TP groups on nodes: dividing `gpus`, and dividing or a multiple of `gpusPerNode`. */
export function allowedTensorParallelSizes(gpus: number, gpusPerNode: number): number[] {
  const sizes: number[] = [];
  for (let tp = 1; tp <= gpus; tp++) {
    if (gpus % tp === 0 && (gpusPerNode % tp === 0 || tp % gpusPerNode === 0)) sizes.push(tp);
  }
  return sizes;
}

/** The replica GPU counts that fill whole nodes near `gpus`, for messages. */
function wholeNodeCounts(gpus: number, gpusPerNode: number): string {
  const below = Math.floor(gpus / gpusPerNode) * gpusPerNode;
  const above = below + gpusPerNode;
  return below > gpusPerNode ? `${below} or ${above}` : `${above}`;
}

/**
 * The layout of one multi-node replica (`gpus` more than `gpusPerNode`), or field errors at the
 * flag, GPU count or annotation that makes it impossible, each naming what would be allowed.
 */
export function multiNodeLayout(input: LayoutInput): LayoutResult {
  const { gpus, gpuPath, gpusPerNode } = input;
  if (gpus % gpusPerNode !== 0) {
    return {
      errors: [invalid(gpuPath, gpus,
        `a multi-node replica takes whole nodes of ${gpusPerNode} GPUs (${GPUS_PER_NODE_PATH}), so its GPU count must be a multiple of ${gpusPerNode}: ` +
          `set it to ${wholeNodeCounts(gpus, gpusPerNode)}, or change gpusPerNode to a divisor of ${gpus}`)],
    };
  }
  const groupSize = gpus / gpusPerNode;
  const allowedTp = allowedTensorParallelSizes(gpus, gpusPerNode);
  const tpFlag = input.tensorParallel;
  const ppFlag = input.pipelineParallel;
  const describe = (f: LayoutFlag) => `${f.written} ${f.size}`;

  let tensorParallel: number;
  let pipelineParallel: number;
  if (tpFlag && ppFlag) {
    tensorParallel = tpFlag.size;
    pipelineParallel = ppFlag.size;
    if (tensorParallel * pipelineParallel !== gpus) {
      const fit = allowedTp.filter((t) => gpus / t === pipelineParallel);
      return {
        errors: [invalid(tpFlag.path, tpFlag.pathValue,
          `${describe(tpFlag)} × ${describe(ppFlag)} is ${tensorParallel * pipelineParallel} ranks, but a replica has ${gpus} GPUs (${gpuPath}) ` +
            `spread over ${groupSize} nodes of ${gpusPerNode}; the product must equal ${gpus}: ` +
            (fit.length > 0 ? `set the tensor parallel size to ${fit[0]}` : `allowed tensor × pipeline sizes: ${allowedTp.map((t) => `${t} × ${gpus / t}`).join(', ')}`))],
      };
    }
  } else if (tpFlag) {
    tensorParallel = tpFlag.size;
    if (gpus % tensorParallel !== 0) {
      return {
        errors: [invalid(tpFlag.path, tpFlag.pathValue,
          `${describe(tpFlag)} does not divide the ${gpus} GPUs of a replica (${gpuPath}), so no whole number of pipeline stages fills them; ` +
            `allowed tensor parallel sizes: ${allowedTp.join(', ')}`)],
      };
    }
    pipelineParallel = gpus / tensorParallel;
  } else if (ppFlag) {
    pipelineParallel = ppFlag.size;
    if (gpus % pipelineParallel !== 0) {
      return {
        errors: [invalid(ppFlag.path, ppFlag.pathValue,
          `${describe(ppFlag)} does not divide the ${gpus} GPUs of a replica (${gpuPath}), so the stages cannot have equal tensor parallel groups; ` +
            `allowed pipeline parallel sizes: ${allowedTp.map((t) => gpus / t).reverse().join(', ')}`)],
      };
    }
    tensorParallel = gpus / pipelineParallel;
  } else {
    tensorParallel = gpusPerNode;
    pipelineParallel = groupSize;
  }

  if (!allowedTp.includes(tensorParallel)) {
    const culprit = tpFlag ?? ppFlag!;
    const derived = tpFlag ? '' : ` (derived: ${gpus} GPUs / ${describe(ppFlag!)})`;
    return {
      errors: [invalid(culprit.path, culprit.pathValue,
        `tensor parallel size ${tensorParallel}${derived} neither divides nor is a multiple of the ${gpusPerNode} GPUs of a node (${GPUS_PER_NODE_PATH}), ` +
          `so a tensor parallel group would straddle part of a node; allowed tensor parallel sizes for ${gpus} GPUs: ${allowedTp.join(', ')}` +
          ` (pipeline parallel sizes: ${allowedTp.map((t) => gpus / t).reverse().join(', ')})`)],
    };
  }
  return { layout: { gpus, gpusPerNode, tensorParallel, pipelineParallel, groupSize }, errors: [] };
}

function layoutFlag(flag: ParallelFlag | undefined): LayoutFlag | undefined {
  if (flag?.size === undefined) return undefined;
  return { size: flag.size, path: flag.path, pathValue: flag.pathValue, written: flag.written };
}

/** The multi-node part of a deployment, as providers and the capacity check read it. */
export interface DeploymentMultiNode {
  /** The layout of each multi-node component; a component that fits one node is absent. */
  readonly layouts: Partial<Record<ServingComponent, MultiNodeLayout>>;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/**
 * What a provider's multi-node checks found for a deployment: the layouts (unset when it does not
 * ask for multi-node replicas, or the provider refuses its engine), errors and warnings.
 */
export interface MultiNodeFindings {
  readonly multiNode?: DeploymentMultiNode;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

/** A deployment, as far as its multi-node layout depends on it. */
export interface MultiNodeSubject {
  readonly annotations?: Readonly<Record<string, string>>;
  readonly spec: ModelDeploymentSpec;
}

/** Whether the component's GPUs exceed one node's: it runs as a group of pods. Engine-free. */
export function isMultiNodeComponent(md: MultiNodeSubject, component: ServingComponent): boolean {
  const settings = multiNodeSettings(md.annotations);
  return settings !== undefined && (gpuOf(md.spec, component)?.count ?? 0) > settings.gpusPerNode;
}

/**
 * GPUs each pod of a component requests: `gpusPerNode` for a multi-node component, else its
 * whole `gpu.count`.
 */
export function podGpuCount(md: MultiNodeSubject, component: ServingComponent): number {
  const count = gpuOf(md.spec, component)?.count ?? 0;
  const settings = multiNodeSettings(md.annotations);
  return settings !== undefined && count > settings.gpusPerNode ? settings.gpusPerNode : count;
}

/** Pods per replica of a component: the group size when multi-node (assuming an even split), else 1. */
export function podsPerReplica(md: MultiNodeSubject, component: ServingComponent): number {
  const count = gpuOf(md.spec, component)?.count ?? 0;
  const settings = multiNodeSettings(md.annotations);
  return settings !== undefined && count > settings.gpusPerNode ? Math.ceil(count / settings.gpusPerNode) : 1;
}

/**
 * The engine-free problems of the annotation against the defaulted spec, for admission: its own
 * problems, then each multi-node component's GPUs that do not fill whole nodes, and MIG profiles
 * (a CUDA process sees one MIG device, so one engine cannot span several).
 */
export function multiNodeAdmissionErrors(md: MultiNodeSubject, readErrors: readonly FieldError[]): FieldError[] {
  if (readErrors.length > 0) return [...readErrors];
  const settings = multiNodeSettings(md.annotations);
  if (!settings) return [];
  const errors: FieldError[] = [];
  for (const component of servingComponents(md.spec)) {
    if (!isMultiNodeComponent(md, component)) continue;
    const gpu = gpuOf(md.spec, component)!;
    const gpuType = gpuTypeOf(gpu);
    if (isMigGpuType(gpuType)) {
      errors.push(invalid(gpuCountPath(component).replace(/count$/, 'type'), gpuType,
        `a MIG profile cannot serve a multi-node replica (${MULTI_NODE_ANNOTATION_PATH}): each engine process sees a single MIG device; request whole GPUs`));
      continue;
    }
    const gpus = gpu.count!;
    if (gpus % settings.gpusPerNode !== 0) {
      errors.push(...multiNodeLayout({ gpus, gpuPath: gpuCountPath(component), gpusPerNode: settings.gpusPerNode }).errors);
    }
  }
  return errors;
}

/**
 * The layout of every multi-node component of a deployment, with the field errors of those that
 * have none, for `engine` (flags as the provider passes them: `extraArgs` only where it renders
 * them), and a warning when the annotation made no component multi-node. Unset when the
 * deployment does not ask for multi-node replicas.
 */
export function deploymentMultiNode(
  md: MultiNodeSubject,
  engine: ParallelEngine,
  options: { readonly extraArgs: boolean },
): DeploymentMultiNode | undefined {
  const settings = multiNodeSettings(md.annotations);
  if (!settings) return undefined;
  const layouts: Partial<Record<ServingComponent, MultiNodeLayout>> = {};
  const errors: FieldError[] = [];
  const user = userParallelism(md.spec, engine, options);
  const components = servingComponents(md.spec).filter((c) => isMultiNodeComponent(md, c));
  if (components.length === 0) {
    const counts = servingComponents(md.spec).map((c) => `${gpuCountPath(c)} ${gpuOf(md.spec, c)?.count ?? 0}`).join(', ');
    return {
      layouts,
      errors,
      warnings: [`${MULTI_NODE_ANNOTATION_PATH} has gpusPerNode ${settings.gpusPerNode}, but no component needs more GPUs than that (${counts}): ` +
        'every replica stays one pod on one node; raise gpu.count above gpusPerNode to spread a replica over nodes, or remove the annotation'],
    };
  }
  // Malformed sizes are reported by the parallelism checks (rule 1); there is no layout to compute.
  if (user.errors.length > 0) return { layouts, errors, warnings: [] };
  const outsideLayout = user.unmodelled ?? user.dataParallel;
  if (outsideLayout) {
    errors.push(invalid(outsideLayout.path, outsideLayout.written,
      `cannot be combined with multi-node replicas (${MULTI_NODE_ANNOTATION_PATH}): the pods of a replica are counted from tensor × pipeline ` +
        'parallel sizes alone; remove the option and set the tensor and pipeline parallel sizes instead'));
    return { layouts, errors, warnings: [] };
  }
  for (const component of components) {
    const result = multiNodeLayout({
      gpus: gpuOf(md.spec, component)!.count!,
      gpuPath: gpuCountPath(component),
      gpusPerNode: settings.gpusPerNode,
      tensorParallel: layoutFlag(user.tensorParallel),
      pipelineParallel: layoutFlag(user.pipelineParallel),
    });
    errors.push(...result.errors);
    if (result.layout) layouts[component] = result.layout;
  }
  return { layouts, errors, warnings: [] };
}
