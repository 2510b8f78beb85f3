/**
 * Every engine command line in a set of synthesized objects, with what the real image would run it
 * with and how many GPUs that engine instance has: the input of the engine conformance check.
 *
 * Where a command line lives, per target (see the providers' translators):
 * - a container of any pod template (Deployment, LeaderWorkerSet leader, Kthena ModelServing roles,
 *   modelplane members, a Dynamo v1beta1 component's podTemplate, ...);
 * - a Dynamo v1alpha1 service's `extraPodSpec.mainContainer`, its GPUs in the service's
 *   `resources.limits.gpu` and its nodes in `multinode.nodeCount`;
 * - a multi-node leader's `/bin/sh -c SCRIPT NAME ARGS...`, whose script ends in `exec PROGRAM "$@"`;
 * - a FlexInfer `Model` (`ai.flexinfer/*`), which holds no container: FlexInfer's controller renders
 *   the vLLM command line from its `spec.config` keys, emulated in `./flexinfer-command-line`.
 *
 * What the image runs when the container sets no command is the image's entrypoint
 * (`IMAGE_ENTRYPOINTS`, from the images' build files; scripts/engine-parsers/README.md).
 */
import * as fs from 'fs';
import * as path from 'path';
import { flexInferCommandLine, isFlexInferModel } from './flexinfer-command-line';

type Json = any;

/** One engine process we would start. */
export interface EngineCommandLine {
  /** Where it is: `examples/minimal-gpu.ts: Deployment ml/qwen .spec.template.spec.containers[0]`. */
  readonly source: string;
  /** The ModelDeployment it was rendered for (`airunway.ai/deployment`), when labelled. */
  readonly deployment?: string;
  readonly namespace?: string;
  readonly image: string;
  /** The program as the container starts it (`python3 -m dynamo.vllm`). */
  readonly program: readonly string[];
  /** Its arguments (after the program). */
  readonly argv: readonly string[];
  /** The parser that judges it (test/fixtures/engine-parsers/<parser>.json), or why none does. */
  readonly parser: string | { readonly unchecked: string };
  /** GPUs one engine instance sees: the pod's, times the pods of a multi-node group. */
  readonly gpus: number;
  /** Pods of one engine instance (a multi-node group's size; 1 otherwise). */
  readonly nodes: number;
  /** The role of a disaggregated worker, when the objects say so. */
  readonly role?: 'prefill' | 'decode';
}

/**
 * The entrypoint of images when the container sets no command: `vllm/vllm-openai` runs the OpenAI
 * API server module up to v0.19 and `vllm serve` from v0.20 on (the ENTRYPOINT of vLLM's
 * docker/Dockerfile in the 0.9.1, 0.11.0 and 0.33.0 sdists on PyPI; scripts/engine-parsers/README.md).
 */
const IMAGE_ENTRYPOINTS: ReadonlyArray<{ readonly repository: RegExp; readonly program: (version: string | undefined) => readonly string[] }> = [
  {
    repository: /^(docker\.io\/)?vllm\/vllm-openai$/,
    program: (version) => (version !== undefined && Number(version.split('.')[0]) === 0 && Number(version.split('.')[1]) < 20
      ? ['python3', '-m', 'vllm.entrypoints.openai.api_server']
      : ['vllm', 'serve']),
  },
];

const GPU_RESOURCES = ['nvidia.com/gpu', 'amd.com/gpu'];

/** The command lines of `objects` (one synthesized output), each tagged with `where`. */
export function engineCommandLines(objects: readonly Json[], where: string): EngineCommandLine[] {
  const claimTemplates = new Map<string, Json>();
  for (const o of objects) {
    if (o?.kind === 'ResourceClaimTemplate') claimTemplates.set(`${o.metadata?.namespace ?? ''}/${o.metadata?.name}`, o);
  }
  const out: EngineCommandLine[] = [];
  for (const o of objects) {
    if (!o || typeof o !== 'object') continue;
    const ns = o.metadata?.namespace;
    const ctx: WalkContext = {
      where: `${where}: ${o.kind} ${ns ? `${ns}/` : ''}${o.metadata?.name}`,
      deployment: o.metadata?.labels?.['airunway.ai/deployment'],
      namespace: ns,
      claimTemplates,
      nodes: 1,
    };
    if (isFlexInferModel(o)) {
      const line = flexInferCommandLine(o, ctx.where, imageEntrypoint);
      if (line) out.push(line);
      continue;
    }
    walk(o, '', ctx, out);
  }
  return out;
}

/** What an image runs when the container sets no command, and the parser of that program; undefined when unknown or not an engine. */
function imageEntrypoint(image: string): { program: readonly string[]; parser: EngineCommandLine['parser'] } | undefined {
  const repository = image.split('@')[0].replace(/:[^/:]+$/, '');
  const entry = IMAGE_ENTRYPOINTS.find((e) => e.repository.test(repository));
  const program = entry?.program(versionOf(image));
  const parser = program ? parserFor(image, program) : undefined;
  return program && parser !== undefined ? { program, parser } : undefined;
}

interface WalkContext {
  readonly where: string;
  readonly deployment?: string;
  readonly namespace?: string;
  readonly claimTemplates: ReadonlyMap<string, Json>;
  readonly nodes: number;
  /** GPUs of the enclosing pod (or Dynamo service). */
  readonly podGpus?: number;
  readonly role?: 'prefill' | 'decode';
}

function walk(x: Json, at: string, ctx: WalkContext, out: EngineCommandLine[]): void {
  if (Array.isArray(x)) {
    x.forEach((v, i) => walk(v, `${at}[${i}]`, ctx, out));
    return;
  }
  if (!x || typeof x !== 'object') return;
  let here = ctx;
  // A LeaderWorkerSet group, a Dynamo multi-node service, a Kthena role with workers: one engine over several pods.
  if (typeof x.leaderWorkerTemplate?.size === 'number') here = { ...here, nodes: x.leaderWorkerTemplate.size };
  if (typeof x.multinode?.nodeCount === 'number') here = { ...here, nodes: x.multinode.nodeCount };
  // A Kthena role: its entry pod and `workerReplicas` worker pods run one engine.
  if (x.entryTemplate && typeof x.workerReplicas === 'number') here = { ...here, nodes: 1 + x.workerReplicas };
  // A modelplane engine: a Standalone member, or a Leader and `worker.nodes` Worker pods.
  if (Array.isArray(x.members)) {
    here = { ...here, nodes: x.members.reduce((n: number, m: Json) => n + (m?.role === 'Worker' ? Number(m.worker?.nodes ?? 1) : 1), 0) };
  }
  // A modelplane member claims its GPUs through `nodeSelector.devices`, which modelplane turns into claims.
  if (Array.isArray(x.nodeSelector?.devices) && x.template) {
    here = { ...here, podGpus: x.nodeSelector.devices.reduce((n: number, d: Json) => n + Number(d?.count ?? 1), 0) };
  }
  if (x.subComponentType === 'prefill' || x.subComponentType === 'decode') here = { ...here, role: x.subComponentType };
  if (x.resources?.limits?.gpu !== undefined && x.extraPodSpec) here = { ...here, podGpus: Number(x.resources.limits.gpu) };
  if (Array.isArray(x.containers)) here = { ...here, podGpus: podGpus(x, here) };
  const strings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((t) => typeof t === 'string'));
  if (typeof x.image === 'string' && (x.args || x.command) && strings(x.args) && strings(x.command)) {
    const line = commandLineOf(x, `${at}`, here);
    if (line) out.push(line);
  }
  for (const key of Object.keys(x)) walk(x[key], `${at}.${key}`, here, out);
}

/** GPUs of a pod spec: its containers' GPU limits, or the devices of the claims they use. */
function podGpus(pod: Json, ctx: WalkContext): number {
  let gpus = 0;
  const claimed = new Set<string>();
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    for (const r of GPU_RESOURCES) gpus += Number(c.resources?.limits?.[r] ?? 0);
    for (const claim of c.resources?.claims ?? []) claimed.add(claim.name);
  }
  for (const rc of pod.resourceClaims ?? []) {
    if (!claimed.has(rc.name) || !rc.resourceClaimTemplateName) continue;
    const template = ctx.claimTemplates.get(`${ctx.namespace ?? ''}/${rc.resourceClaimTemplateName}`);
    for (const req of template?.spec?.spec?.devices?.requests ?? []) {
      const exactly = req.exactly ?? req;
      if (exactly.allocationMode === 'All') continue;
      gpus += Number(exactly.count ?? 1);
    }
  }
  return gpus || Number(ctx.podGpus ?? 0);
}

function commandLineOf(container: Json, at: string, ctx: WalkContext): EngineCommandLine | undefined {
  const image: string = container.image;
  const command: string[] = container.command ?? [];
  let args: string[] = container.args ?? [];
  let program: readonly string[] = command;
  if (command.length >= 3 && /(^|\/)(ba)?sh$/.test(command[0]) && command[1] === '-c') {
    // `sh -c SCRIPT NAME ARGS...`: the script's `exec PROGRAM "$@"` runs ARGS (`$0` is NAME).
    const exec = /(?:^|\n)\s*exec\s+(.+?)\s+"\$@"\s*$/.exec(command[2]);
    if (!exec) return undefined;
    program = exec[1].split(/\s+/);
    args = [...command.slice(4), ...args];
  } else if (command.length === 0) {
    const entry = imageEntrypoint(image);
    if (!entry) return undefined;
    program = entry.program;
  }
  const parser = parserFor(image, program);
  if (parser === undefined) return undefined;
  return {
    source: `${ctx.where} ${at}`,
    deployment: ctx.deployment,
    namespace: ctx.namespace,
    image,
    program,
    argv: args,
    parser,
    gpus: (ctx.podGpus ?? 0) * ctx.nodes,
    nodes: ctx.nodes,
    role: ctx.role ?? roleOf(args),
  };
}

function roleOf(args: readonly string[]): 'prefill' | 'decode' | undefined {
  const i = args.indexOf('--disaggregation-mode');
  const role = i >= 0 ? args[i + 1] : undefined;
  return role === 'prefill' || role === 'decode' ? role : undefined;
}

/** The image's tag without a leading `v` (`vllm/vllm-openai:v0.11.0` → `0.11.0`). */
function versionOf(image: string): string | undefined {
  const m = /:v?(\d+\.\d+\.\d+)[^/@]*(@|$)/.exec(image);
  return m?.[1];
}

/**
 * The parser of an engine program, or undefined when the program is not an engine (a downloader,
 * the endpoint picker): `<package>-<version>-<entrypoint>` by the image's tag.
 */
export function parserFor(image: string, program: readonly string[]): EngineCommandLine['parser'] | undefined {
  const module = program[0]?.startsWith('python') && program[1] === '-m' ? program[2] : undefined;
  let family: string | undefined;
  if (module === 'vllm.entrypoints.openai.api_server') family = 'vllm-{v}-api-server';
  else if (program[0] === 'vllm' && program[1] === 'serve') family = 'vllm-{v}-serve';
  else if (module === 'sglang.launch_server') family = 'sglang-{v}-launch-server';
  else if (module?.startsWith('dynamo.')) family = `dynamo-{v}-${module.slice('dynamo.'.length)}`;
  if (family === undefined) return undefined;
  const version = versionOf(image);
  if (version === undefined) return { unchecked: `image ${image} has no released version tag: which ${family.replace('-{v}', '')} it carries is unknown` };
  const name = family.replace('{v}', version);
  return fs.existsSync(parserDefinitionPath(name)) ? name : { unchecked: `no parser definition ${name} (scripts/engine-parsers/extract-all.sh writes them)` };
}

export const PARSER_DEFINITIONS_DIR = path.join(__dirname, '..', 'fixtures', 'engine-parsers');

export function parserDefinitionPath(name: string): string {
  return path.join(PARSER_DEFINITIONS_DIR, `${name}.json`);
}
