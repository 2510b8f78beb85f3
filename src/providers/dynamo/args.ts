import { DYNAMO_VERSION } from './images';
import { dynamoLayoutFlags } from './multi-node';
import { FieldError } from '../../core/field-error';
import type { ModelDeploymentSpec } from '../../core/generated/model-deployment-spec';
import type { EngineName } from '../../core/model-deployment-object';
import { SpecEngineSetting, specEngineFlags, tensorParallelFlag } from '../../provider-kit/engine-flag-table';
import { invalidEngineArgKeyError, isValidEngineArgKey, namedEngineFlags, NIXL_KV_TRANSFER_CONFIG, sortedEngineArgKeys } from '../../provider-kit/engine-flags';
import { engineArgumentTable, switchValueErrors } from '../../provider-kit/engine-switches';
import type { EngineArgumentTable } from '../../provider-kit/generated/engine-arguments';
import type { MultiNodeLayout } from '../../provider-kit/multi-node-layout';
import { removedEngineFlagErrors } from '../../provider-kit/retired-engine-flags';


/**
 * `engine.args` key that Dynamo's vLLM worker never receives: AI Runway drops it, because the
 * KV connector is Dynamo's to choose (NIXL in disaggregated mode).
 */
export const DROPPED_VLLM_ARG = 'connector';

/** Role of a disaggregated worker (`--disaggregation-mode`). */
export type DisaggregationRole = 'prefill' | 'decode';

/** `python3 -m dynamo.<engine>`: the worker entry point of each engine's runtime image. */
export function workerCommand(engine: string): string[] {
  return ['python3', '-m', `dynamo.${engine}`];
}

/** Entry point of the mocker test backend. */
export const MOCKER_COMMAND: readonly string[] = ['python3', '-m', 'dynamo.mocker'];

/**
 * The Dynamo transformer's key check of `spec.engine.args` (the same rule as llm-d and Direct
 * vLLM): one error per invalid key, in sorted key order, at `spec.engine.args.<key>`; then the
 * switch values, against the worker of `dynamoVersion`'s runtime.
 */
export function dynamoArgKeyErrors(spec: ModelDeploymentSpec, dynamoVersion: string = DYNAMO_VERSION): FieldError[] {
  const engine = spec.engine?.type ?? 'vllm';
  const table = dynamoWorkerArguments(engine, dynamoVersion);
  const release = table ? table.parser.split('-')[1] : dynamoVersion;
  return [
    ...sortedEngineArgKeys(spec).filter((key) => !isValidEngineArgKey(key)).map(invalidEngineArgKeyError),
    ...switchValueErrors(spec, table, `Dynamo ${release}'s dynamo.${engine} worker`),
    // The default runtime's table knows what the runtimes we defaulted to before took; another's has no such list.
    ...removedEngineFlagErrors(spec, table, `Dynamo ${release}'s dynamo.${engine} worker`),
  ];
}

/**
 * The options of the `engine` worker (its real parser's), for `engine.args` switches: those of
 * the runtime `dynamoVersion` when its parser was extracted, else the default runtime's.
 */
export function dynamoWorkerArguments(engine: string, dynamoVersion: string = DYNAMO_VERSION): EngineArgumentTable | undefined {
  return engineArgumentTable(`dynamo-${dynamoVersion}-${engine}`) ?? engineArgumentTable(`dynamo-${DYNAMO_VERSION}-${engine}`);
}

/** What a worker's arguments depend on besides the spec. */
export interface DynamoWorkerArgsOptions {
  /** The role of a disaggregated worker. */
  readonly role?: DisaggregationRole;
  /** The layout of a multi-node worker (its sizes replace the derived tensor parallel size). */
  readonly multiNode?: MultiNodeLayout;
  /** The tensor parallel size of a single-pod worker (`dynamoDerivedTensorParallel`). */
  readonly derivedTensorParallel?: number;
  /** The runtime's tag, whose worker's switch forms `engine.args` take. @default DYNAMO_VERSION */
  readonly dynamoVersion?: string;
}

/** Engines Dynamo has a worker for (`dynamo.<engine>`). */
const WORKER_ENGINES: readonly EngineName[] = ['vllm', 'sglang', 'trtllm'];

/** Dynamo's order of the structured settings (AI Runway providers spec §2.5). */
const DYNAMO_SETTINGS: readonly SpecEngineSetting[] = [
  'model', 'servedModelName', 'contextLength', 'trustRemoteCode', 'prefixCachingOn', 'prefixCachingOff', 'enforceEager',
];

/**
 * The worker arguments of a real engine, in AI Runway's order (each flag and value a separate
 * element), the flags from the engine flag table (`common/engine-flag-table`):
 *
 * 1. the model (`--model` for vLLM, `--model-path` for SGLang and TensorRT-LLM, even when the
 *    id is empty: the engine then reports it); 2. the served model name when set; 3. the context
 *    length (nothing for TensorRT-LLM); 4. trust-remote-code when true, 5. prefix caching in both
 *    states (vLLM `--enable-prefix-caching`/`--no-enable-prefix-caching`, SGLang
 *    `--disable-radix-cache` when off), 6. eager mode when true (SGLang: no CUDA graphs, the engine flag table's),
 *    nothing of 4–6 for TensorRT-LLM;
 * 7. for a worker of a multi-node replica, the layout's `--tensor-parallel-size` and
 *    `--pipeline-parallel-size`, each unless `engine.args` sets it (`dynamoLayoutFlags`); for a
 *    single-pod worker with several GPUs, `--tensor-parallel-size <gpus>` unless `engine.args`
 *    sets it;
 * 8. `engine.args` sorted by key, `--key value` or a bare `--key` for an empty value, without
 *    `connector` for vLLM;
 * then, for a disaggregated worker, `--disaggregation-mode <role>` and (vLLM only) the NIXL
 * `--kv-transfer-config`.
 *
 * Dynamo's quirks: `extraArgs` are not passed (as upstream); an engine Dynamo has no worker for (reachable
 * only through a registry entry without capabilities) keeps AI Runway's fallback, `--model` and
 * `--served-model-name` only. Expects a spec `validateDynamo` accepted (valid `engine.args` keys).
 */
export function dynamoEngineArgs(spec: ModelDeploymentSpec, engine: string, options: DynamoWorkerArgsOptions = {}): string[] {
  const { role, multiNode, derivedTensorParallel, dynamoVersion } = options;
  const worker = WORKER_ENGINES.find((name) => name === engine);
  // The runtime's own table: an older runtime's engine gets the spelling it takes (SGLang's eager mode).
  const out = worker
    ? specEngineFlags(spec, worker, DYNAMO_SETTINGS, new Set(), dynamoWorkerArguments(worker, dynamoVersion))
    : specEngineFlags(spec, 'vllm', ['model', 'servedModelName']);
  if (multiNode) {out.push(...dynamoLayoutFlags(spec, engine, multiNode));} else if (worker && derivedTensorParallel) {
    out.push(...tensorParallelFlag(worker, derivedTensorParallel, new Set(Object.keys(spec.engine?.args ?? {}))));
  }
  out.push(...namedEngineFlags(spec, engine === 'vllm' ? new Set([DROPPED_VLLM_ARG]) : undefined, dynamoWorkerArguments(engine, dynamoVersion)));
  if (role) {
    out.push('--disaggregation-mode', role);
    if (engine === 'vllm') out.push('--kv-transfer-config', NIXL_KV_TRANSFER_CONFIG);
  }
  return out;
}

/**
 * The mocker's arguments: it serves `--model-path <id>` under `--model-name <servedName or id>`,
 * 1000 times faster than real time with a fixed small KV cache; a disaggregated mocker worker
 * adds `--disaggregation-mode <role>` (no KV transfer config).
 */
export function mockerArgs(spec: ModelDeploymentSpec, role?: DisaggregationRole): string[] {
  const id = spec.model.id ?? '';
  const out = [
    '--model-path', id,
    '--model-name', spec.model.servedName || id,
    '--speedup-ratio', '1000.0',
    '--num-gpu-blocks-override', '4096',
    '--block-size', '16',
    '--max-num-seqs', '64',
  ];
  if (role) out.push('--disaggregation-mode', role);
  return out;
}
