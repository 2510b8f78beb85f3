/**
 * The vLLM command line FlexInfer's controller would start for a synthesized FlexInfer `Model`
 * (`ai.flexinfer/v1alpha2`): our output holds no container for it, only named keys under
 * `spec.config` that FlexInfer's vllm backend renders into server flags. This emulates that
 * rendering so the engine conformance check judges what FlexInfer would run.
 *
 * Every fact below is from the public repository flexinfer/flexinfer, at the commits named
 * (the stored versions the seed notes in /work/shared/spec/other-seed-systems.md §3.0 list):
 *
 * - [vllm.go] `backend/vllm.go` @ e9c03311849a0cc85ea8ba81a833e48db8009685: the vllm backend's
 *   image rules, port, `Args(spec)` (flag order, config keys, value formats) and `KVCacheArgs`;
 *   it embeds `BaseBackend` and defines no `Command`.
 * - [interface.go] `backend/interface.go`: `BaseBackend.Command()` returns nil ("use image
 *   default"), in every stored version (db7ac15f8df824d5046ce19b7898e0ad240495f4 and later);
 *   `ConfigString` takes a JSON string only, `ConfigInt` a JSON number (Go's `int(float64)`,
 *   which truncates), `ConfigBool` a JSON boolean; the stored version that vllm.go@e9c03311 goes
 *   with (its `ROCmEnvVars` takes the GPU arch; the index gives no commit for it) also reads a
 *   string through Go's `strconv.ParseBool`, which db7ac15f does not.
 * - [image.go] `backend/image.go` @ 595d1334b33a4a577408a365283c58d899a04c3b: `ResolveImage`
 *   takes the first rule matching vendor and arch prefix; its controller env var, then its default.
 * - [deployment] `controllers/model_deployment.go` @ 94429957c3f1b0fb22c18b850fdbedeb14787cf0
 *   (`ensureDeployment`): container `model` with `Command: b.Command()` (nil for vllm), `Args:
 *   b.Args(spec)`, then `KVCacheArgs(kvCache.maxBlockSize, kvCache.swapSpace)` appended when
 *   `spec.kvCache` is set, then `--enable-lora --max-loras max(n, 4)` when n LoRAAdapter CRs name
 *   the model; `spec.image` wins over the backend's image; GPU limit = `GetGPUCount()` of the
 *   detected vendor's resource. Nothing renders a tensor, pipeline or data parallel size.
 * - [backend spec] `controllers/model_backend.go` @ d48d066f5eee64183220c2a13760fa03bff1bd14
 *   (`buildBackendModelSpecForArch`, `resolveBackendStoragePlan`, `extractModelFromSource`): the
 *   backend's `Model` is the source without its scheme (`pvc://c/p` → `/p`), its `ModelPath` the
 *   in-container path when the weights are mounted; config is `json.Unmarshal`'ed (numbers become
 *   float64), then a GPUProfile CR matching the node's arch may add vLLM defaults.
 * - [registry] `backend/registry.go` @ 4854519578ad69d09dcf543fe265c1b339033851: `Get` trims and
 *   lower-cases the backend name (`canonicalize`); the vllm backend has no aliases.
 * - [types] `api/v1alpha2/model_types.go` @ 74967997a008981eba9b54a14b1305ff4731eb19:
 *   `GetGPUCount()` is 0 without `spec.gpu` or with vendor cpu, else `gpu.count`, default 1.
 *
 * What the image runs: vllm.go's default NVIDIA (and vendor-unknown) image is
 * `vllm/vllm-openai:latest`, a moving tag. Recent `vllm/vllm-openai` images declare `ENTRYPOINT
 * ["vllm", "serve"]` (scripts/engine-parsers/README.md: the 0.9.1 and 0.11.0 Dockerfiles run
 * `python3 -m vllm.entrypoints.openai.api_server`, later ones `vllm serve`), and `:latest` has
 * carried vLLM 0.19 and newer (public logs of `docker run vllm/vllm-openai:latest --model ...`
 * show 0.19.0, 0.20.0, 0.23.0, each warning that `--model` is deprecated for `vllm serve` and
 * starting anyway); vllm.go itself assumes vLLM ≥ 0.17 ("vLLM 0.17.0+ is V1-only").
 *
 * The parser judging it: the newest vLLM we have a parser definition of, `vllm-0.33.0-serve`
 * (the release our own default image carries; its `vllm serve` warns on `--model` and starts, as
 * the `:latest` logs show). Flags added after 0.33.0 would be refused here though a newer
 * `:latest` takes them, and flags removed since would pass here though it refuses them.
 *
 * Assumed, being decided by the cluster at run time: the controller's `DEFAULT_VLLM_IMAGE` env
 * var is unset, no GPUProfile adds vLLM defaults, no LoRAAdapter CR names the model, no KV-cache
 * pressure reconfiguration has happened (`status.kvCache.reconfigured`), and the rendering is the
 * one made once the cache is ready (for SharedPVC: `status.cache.pvcName` set, which is when the
 * weights are at `/models/<model>`). The llamacpp backend is left out: no llama-server parser
 * definition exists to judge it (as for llama-server containers of the other targets).
 */
import type { EngineCommandLine } from './engine-command-lines';

type Json = any;

/** API group of FlexInfer's Model. */
export const FLEXINFER_API_GROUP = 'ai.flexinfer';

/** [vllm.go] `vllmImageRules`: the global default (NVIDIA, unknown vendor), env `DEFAULT_VLLM_IMAGE`. */
export const FLEXINFER_DEFAULT_VLLM_IMAGE = 'vllm/vllm-openai:latest';

/** [vllm.go] `PortVLLM`, rendered as `--port`. */
const VLLM_PORT = 8000;

/** See the header: the `:latest` image judged by the newest parser definition, vLLM 0.33.0's `vllm serve`. */
export const LATEST_IMAGE_PARSER = 'vllm-0.33.0-serve';

/** Whether `o` is a FlexInfer Model. */
export function isFlexInferModel(o: Json): boolean {
  return o?.kind === 'Model' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith(`${FLEXINFER_API_GROUP}/`);
}

/** [interface.go] `ConfigString`: a JSON string, else the default. */
function configString(config: Json, key: string, otherwise = ''): string {
  const v = config?.[key];
  return typeof v === 'string' ? v : otherwise;
}

/** [interface.go] `ConfigInt`: a JSON number (a float64 after json.Unmarshal) truncated to int, else the default. */
function configInt(config: Json, key: string, otherwise = 0): number {
  const v = config?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : otherwise;
}

/** Go's `strconv.ParseBool`. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** [interface.go] `ConfigBool`: a JSON boolean, or (newer version) a string `strconv.ParseBool` reads, else the default. */
function configBool(config: Json, key: string, otherwise: boolean): boolean {
  const v = config?.[key];
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return parseGoBool(v) ?? otherwise;
  return otherwise;
}

/** [backend spec] `extractModelFromSource`. */
function modelFromSource(source: string): string {
  for (const scheme of ['HF://', 'ollama://', 'file://']) if (source.startsWith(scheme)) return source.slice(scheme.length);
  if (source.startsWith('pvc://')) {
    const rest = source.slice('pvc://'.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) return `/${rest.slice(slash + 1)}`;
  }
  return source;
}

/** [backend spec] `cacheStrategy`: the Model's, else Memory for a shared GPU, else SharedPVC. */
function cacheStrategyOf(spec: Json): string {
  if (spec.cache?.strategy) return spec.cache.strategy;
  return spec.gpu?.shared ? 'Memory' : 'SharedPVC';
}

/** [backend spec] `resolveGGUFFile`: `ggufFile`, else `modelFile`, trimmed, no leading `/`, none with `..`. */
function ggufFileOf(config: Json): string {
  let file = typeof config?.ggufFile === 'string' ? config.ggufFile : '';
  if (file.trim() === '' && typeof config?.modelFile === 'string') file = config.modelFile;
  file = file.trim().replace(/^\/+/, '');
  return file !== '' && !file.includes('..') ? file : '';
}

/**
 * [backend spec] `resolveBackendStoragePlan(...).ModelPath` for the vllm backend, the cache
 * assumed ready; '' when the weights are not mounted (vLLM then loads `Model`, the HF id).
 */
function modelPathOf(model: Json): string {
  const spec = model.spec ?? {};
  const source: string = spec.source ?? '';
  const value = modelFromSource(source);
  const strategy = cacheStrategyOf(spec);
  let path = '';
  if (source.startsWith('HF://') && strategy === 'SharedPVC') path = `/models/${model.metadata?.name}`;
  if (source.startsWith('pvc://')) {
    // `pvcSourceStageMode`: no cache block → mounted directly; "" or SharedPVC → staged copy; Local → hostPath.
    const local = spec.cache !== undefined && spec.cache !== null && spec.cache.strategy === 'Local';
    if (local) path = value.replace(/^\/+/, '') ? `/models/${value.replace(/^\/+/, '')}` : '/models';
    else path = value.startsWith('/') ? `/models${value}` : '/models';
  }
  if (source.startsWith('file://')) path = value;
  if (source.startsWith('HF://') && (strategy === 'SharedPVC' || strategy === 'Local')) {
    const gguf = ggufFileOf(spec.config);
    if (gguf) path = strategy === 'Local' ? `/models/${gguf}` : `/models/${model.metadata?.name}/${gguf}`;
  }
  return path;
}

/** [vllm.go] `Args(spec)`: the flags in the backend's order, from the Model's source and `spec.config`. */
export function flexInferVllmArgs(model: Json): string[] {
  const spec = model.spec ?? {};
  const config = spec.config ?? {};
  const args = ['--host', '0.0.0.0', '--port', String(VLLM_PORT)];
  const modelPath = modelPathOf(model);
  const modelId = modelFromSource(spec.source ?? '');
  if (modelPath) args.push('--model', modelPath);
  else if (modelId) args.push('--model', modelId);
  const str = (key: string, flag: string) => {
    const v = configString(config, key);
    if (v !== '') args.push(flag, v);
  };
  const positive = (key: string, flag: string) => {
    const v = configInt(config, key);
    if (v > 0) args.push(flag, String(v));
  };
  const sw = (key: string, flag: string) => {
    if (configBool(config, key, false)) args.push(flag);
  };
  str('dtype', '--dtype');
  positive('maxModelLen', '--max-model-len');
  str('gpuMemoryUtilization', '--gpu-memory-utilization');
  // `resolveVLLMAttentionBackend`: attentionBackend, else CUSTOM for kvCacheCodec turboquant.
  const attention = configString(config, 'attentionBackend') || (configString(config, 'kvCacheCodec').toLowerCase() === 'turboquant' ? 'CUSTOM' : '');
  if (attention) args.push('--attention-backend', attention);
  sw('trustRemoteCode', '--trust-remote-code');
  positive('maxNumSeqs', '--max-num-seqs');
  positive('maxNumBatchedTokens', '--max-num-batched-tokens');
  sw('enforceEager', '--enforce-eager');
  str('cpuOffloadGb', '--cpu-offload-gb');
  str('offloadBackend', '--offload-backend');
  positive('numGpuBlocksOverride', '--num-gpu-blocks-override');
  str('quantization', '--quantization');
  // Rendered a second time, directly (so `attentionBackend` gives the flag twice; argparse keeps the last).
  str('attentionBackend', '--attention-backend');
  str('tokenizer', '--tokenizer');
  str('servedModelName', '--served-model-name');
  str('kvCacheDtype', '--kv-cache-dtype');
  // Only when the key is present: "off" becomes --no-enable-prefix-caching; "on" renders nothing.
  if ('enablePrefixCaching' in config && !configBool(config, 'enablePrefixCaching', true)) args.push('--no-enable-prefix-caching');
  if ('disableHybridKVCacheManager' in config) {
    args.push(configBool(config, 'disableHybridKVCacheManager', false) ? '--disable-hybrid-kv-cache-manager' : '--no-disable-hybrid-kv-cache-manager');
  }
  if (configBool(config, 'enableToolCalling', false)) args.push('--enable-auto-tool-choice', '--tool-call-parser', configString(config, 'toolCallParser', 'hermes'));
  str('reasoningParser', '--reasoning-parser');
  sw('disableLogStats', '--disable-log-stats');
  str('speculativeConfig', '--speculative-config');
  str('limitMmPerPrompt', '--limit-mm-per-prompt');
  str('mmProcessorKwargs', '--mm-processor-kwargs');
  // [deployment] then `KVCacheArgs` when spec.kvCache is set: `--block-size %d`, `--swap-space %.1f` (GiB).
  const kv = spec.kvCache;
  if (kv && typeof kv === 'object') {
    if (typeof kv.maxBlockSize === 'number') args.push('--block-size', String(Math.trunc(kv.maxBlockSize)));
    if (kv.swapSpace !== undefined && kv.swapSpace !== null) args.push('--swap-space', swapSpaceGiB(kv.swapSpace));
  }
  return args;
}

/** `%.1f` of a Quantity's `AsApproximateFloat64()` (plain numbers, and the binary and decimal suffixes). */
function swapSpaceGiB(q: unknown): string {
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/.exec(String(q));
  if (!m) return String(q);
  const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
  const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
  const suffix = m[2] ?? '';
  const scale = binary[suffix] ?? decimal[suffix] ?? (suffix ? Number(`1${suffix}`) : 1);
  return (Number(m[1]) * scale).toFixed(1);
}

/** [image.go] + [vllm.go] + [deployment]: the image, or why it cannot be known at synth time. */
function imageOf(spec: Json): { image: string } | { unknown: string } {
  if (typeof spec.image === 'string' && spec.image) return { image: spec.image };
  const vendor = String(spec.gpu?.vendor ?? (spec.gpu ? 'auto' : 'cpu')).toLowerCase();
  if (vendor === 'nvidia' || vendor === 'cpu') return { image: FLEXINFER_DEFAULT_VLLM_IMAGE };
  if (vendor === 'amd') {
    return { unknown: 'FlexInfer picks its AMD vLLM image by the GPU architecture it detects (registry.harbor.lan/flexinfer/vllm:rocm-gfx1100-fa, ...:rocm-gfx906, else rocm/vllm:latest), whose entrypoint and vLLM version are unknown' };
  }
  return { unknown: 'gpu.vendor auto: FlexInfer picks the NVIDIA or the AMD vLLM image by the vendor it detects at run time' };
}

/**
 * The engine command line FlexInfer would run for a vllm `Model` (one pod, its `GetGPUCount()`
 * GPUs), or undefined for other backends. `where` names the object, `resolve` picks the program and
 * parser of an explicit image as for a container that sets no command (`engine-command-lines`).
 */
export function flexInferCommandLine(
  model: Json,
  where: string,
  resolve: (image: string) => { program: readonly string[]; parser: EngineCommandLine['parser'] } | undefined,
): EngineCommandLine | undefined {
  const spec = model?.spec ?? {};
  // [registry] the name is trimmed and lower-cased before lookup.
  if (String(spec.backend ?? '').trim().toLowerCase() !== 'vllm') return undefined;
  const resolved = imageOf(spec);
  const image = 'image' in resolved ? resolved.image : '';
  let program: readonly string[] = ['vllm', 'serve'];
  let parser: EngineCommandLine['parser'];
  if ('unknown' in resolved) {
    parser = { unchecked: resolved.unknown };
  } else if (/^(docker\.io\/)?vllm\/vllm-openai(:latest)?$/.test(image)) {
    parser = LATEST_IMAGE_PARSER;
  } else {
    const r = resolve(image);
    if (r) ({ program, parser } = r);
    else parser = { unchecked: `image ${image}: what it runs when the container sets no command (FlexInfer sets none for vllm) is unknown` };
  }
  const gpuCount = !spec.gpu || String(spec.gpu.vendor ?? '').toLowerCase() === 'cpu' ? 0 : Number(spec.gpu.count ?? 1);
  const ns = model.metadata?.namespace;
  return {
    source: `${where} .spec (FlexInfer vllm backend)`,
    deployment: model.metadata?.labels?.['airunway.ai/deployment'],
    namespace: ns,
    image,
    program,
    argv: flexInferVllmArgs(model),
    parser,
    gpus: gpuCount,
    nodes: 1,
  };
}
