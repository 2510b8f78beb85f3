/**
 * "Accepted, but not what the spec asked": a command line the engine's parser accepts can still
 * serve something else than the ModelDeployment record says. Judged from the parsed values (the
 * parser's namespace), per engine family, against the record's admitted spec:
 *
 * - prefix caching, eager mode, context length, trust-remote-code and the served name as the spec
 *   sets them (the engines' own names: vLLM `enable_prefix_caching`, SGLang `disable_radix_cache`);
 *   without a served name (and no `gateway.modelName`), a plain vLLM server serves under
 *   `model.id`, the name the Gateway routes on (not a mount path such as FlexInfer's `/models/<m>`);
 * - tensor × pipeline × data parallel ranks equal to the GPUs the engine instance has (fewer leave
 *   GPUs idle, more cannot start);
 * - a KV connector that the engine version registers and that runs on its V1 engine.
 */
import type { EngineCommandLine } from './engine-command-lines';

type Json = any;

/** KV connectors each vLLM version registers for its V1 engine (vllm/distributed/kv_transfer/kv_connector/factory.py of each release). */
const V1_KV_CONNECTORS: Readonly<Record<string, readonly string[]>> = {
  '0.9.1': ['SharedStorageConnector', 'P2pNcclConnector', 'LMCacheConnectorV1', 'NixlConnector', 'MultiConnector'],
  '0.11.0': ['SharedStorageConnector', 'P2pNcclConnector', 'LMCacheConnectorV1', 'NixlConnector', 'MultiConnector', 'OffloadingConnector'],
  '0.33.0': [
    'ExampleConnector', 'ExampleHiddenStatesConnector', 'LMCacheConnectorV1', 'LMCacheMPConnector', 'NixlConnector', 'NixlPullConnector',
    'NixlPushConnector', 'MultiConnector', 'HiSparseConnector', 'MoRIIOConnector', 'OffloadingConnector', 'DecodeBenchConnector',
    'MooncakeConnector', 'MooncakeStoreConnector', 'FlexKVConnectorV1', 'SimpleCPUOffloadConnector', 'HF3FSKVConnector',
  ],
};

/** The engine a parser belongs to, for the names of its settings. */
type Family = 'vllm' | 'sglang' | 'trtllm' | 'frontend' | 'mocker';

export function familyOf(parser: string): Family | undefined {
  if (/^vllm-|^dynamo-.*-vllm$/.test(parser)) return 'vllm';
  if (/^sglang-|^dynamo-.*-sglang$/.test(parser)) return 'sglang';
  if (/^dynamo-.*-trtllm$/.test(parser)) return 'trtllm';
  if (/^dynamo-.*-frontend$/.test(parser)) return 'frontend';
  if (/^dynamo-.*-mocker$/.test(parser)) return 'mocker';
  return undefined;
}

const num = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v));

/**
 * What `line` does that `record` (the ModelDeployment the line was rendered for) did not ask, each
 * as a sentence; [] when it serves what was asked. `values` are the parser's.
 */
export function specMismatches(
  line: EngineCommandLine,
  parser: string,
  values: Readonly<Record<string, unknown>>,
  record: Json | undefined,
): string[] {
  const family = familyOf(parser);
  const out: string[] = [];
  if (family === undefined || family === 'frontend') return out;
  const spec = record?.spec ?? {};
  const engine = spec.engine ?? {};

  if (family === 'mocker') return out;

  // Parallelism: ranks against the GPUs of the engine instance.
  const tp = num(values.tensor_parallel_size ?? values.tp_size) ?? 1;
  const pp = num(values.pipeline_parallel_size ?? values.pp_size) ?? 1;
  let dp = num(values.data_parallel_size ?? values.dp_size) ?? 1;
  if (family === 'sglang' && values.enable_dp_attention) dp = 1; // SGLang's DP attention carves its DP ranks out of the TP ranks
  const ranks = tp * pp * dp;
  const gpus = Math.max(line.gpus, 1);
  if (line.gpus > 0 && ranks !== gpus) {
    out.push(`${ranks} ranks (TP ${tp} × PP ${pp} × DP ${dp}) on ${line.gpus} GPU${line.gpus === 1 ? '' : 's'}${line.nodes > 1 ? ` (${line.nodes} pods)` : ''}`);
  }
  if (line.gpus === 0 && ranks > 1) out.push(`${ranks} ranks on a pod without GPUs`);

  if (family === 'vllm') {
    if (engine.enablePrefixCaching === true && values.enable_prefix_caching === false) out.push('prefix caching asked on, off');
    if (engine.enablePrefixCaching === false && values.enable_prefix_caching !== false) {
      out.push(`prefix caching asked off, ${values.enable_prefix_caching === true ? 'on' : 'left to the engine default (on)'}`);
    }
    if (engine.enforceEager === true && values.enforce_eager !== true) out.push('eager mode asked, CUDA graphs on');
    if (engine.trustRemoteCode === true && values.trust_remote_code !== true) out.push('trust-remote-code asked, not set');
    if (engine.contextLength !== undefined && num(values.max_model_len) !== Number(engine.contextLength)) {
      out.push(`context length ${engine.contextLength} asked, max_model_len ${values.max_model_len}`);
    }
    const kv = values.kv_transfer_config as Json;
    if (kv && typeof kv === 'object') {
      // The Dynamo workers' vLLM (0.19) has no entry: its connector is checked by the real run.
      const version = /^vllm-(\d+\.\d+\.\d+)-/.exec(parser)?.[1];
      const known = version ? V1_KV_CONNECTORS[version] : undefined;
      if (known && !known.includes(kv.kv_connector)) {
        out.push(`KV connector ${kv.kv_connector} is not a V1 connector of vLLM ${version} (${known.join(', ')})`);
      }
    }
    if (line.role && !(kv && typeof kv === 'object') && !parser.startsWith('dynamo-')) out.push(`a ${line.role} worker without a KV transfer config`);
  }
  if (family === 'sglang') {
    // SGLang turns the radix cache off on a decode worker itself (ServerArgs.__post_init__ in
    // disaggregation mode "decode", seen by the real parser): the prefill side caches prefixes.
    const decodeWorker = values.disaggregation_mode === 'decode' || line.role === 'decode';
    if (engine.enablePrefixCaching === true && values.disable_radix_cache === true && !decodeWorker) out.push('prefix caching asked on, radix cache off');
    if (engine.enablePrefixCaching === false && values.disable_radix_cache !== true) out.push('prefix caching asked off, radix cache on');
    // SGLang 0.5.2x: no CUDA graphs is both phases' backend `disabled` (or the deprecated --disable-cuda-graph).
    const noCudaGraphs = values.disable_cuda_graph === true ||
      (values.cuda_graph_backend_decode === 'disabled' && values.cuda_graph_backend_prefill === 'disabled');
    if (engine.enforceEager === true && !noCudaGraphs) out.push('eager mode asked, CUDA graphs on');
    if (engine.trustRemoteCode === true && values.trust_remote_code !== true) out.push('trust-remote-code asked, not set');
    if (engine.contextLength !== undefined && num(values.context_length) !== Number(engine.contextLength)) {
      out.push(`context length ${engine.contextLength} asked, context_length ${values.context_length}`);
    }
  }
  if (family === 'trtllm') {
    if (engine.contextLength !== undefined && num(values.max_seq_len) !== Number(engine.contextLength)) {
      out.push(`context length ${engine.contextLength} asked, max_seq_len ${values.max_seq_len}`);
    }
  }
  const served = spec.model?.servedName;
  const got = values.served_model_name;
  const names = Array.isArray(got) ? got : got === null || got === undefined ? [] : [got];
  if (served) {
    if (!names.includes(served)) out.push(`served name ${served} asked, ${names.length ? names.join(', ') : 'none'}`);
  } else if (family === 'vllm' && parser.startsWith('vllm-') && spec.model?.id && !spec.gateway?.modelName) {
    // No served name: vLLM serves under its model argument (`vllm serve`'s positional, else
    // --model), and the record under model.id (what the Gateway routes on, and clients ask for).
    const model = values.model_tag ?? values.model;
    const serving = names.length > 0 ? names : model === null || model === undefined ? [] : [model];
    if (!serving.includes(spec.model.id)) out.push(`served under model.id ${spec.model.id} asked (no servedName), served as ${serving.join(', ') || 'none'}`);
  }
  return out;
}
