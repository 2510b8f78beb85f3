/**
 * Every default image the shipped providers run, as data: for each provider × engine (or the
 * component it runs: an endpoint picker, a frontend), the image, the engine version the image
 * carries, what it runs, and the parser definition the engine conformance check holds our
 * command lines to (test/fixtures/engine-parsers/<parser>.json). The providers read their
 * defaults from here; the README's version table is this one.
 *
 * Every tag is a released version (test/core/version-matrix.test.ts fails on a moving one). No
 * digest is recorded: none could be read here (no container registry is reachable), and a digest
 * not read from the registry would be a guess.
 */

/** One default image. */
export interface DefaultImage {
  /** The InferenceProviderConfig name of the provider, or `gateway` for the inference gateway's parts. */
  readonly provider: string;
  /** The AI Runway engine (`vllm`, `sglang`, `trtllm`), or the component the image runs. */
  readonly engine: string;
  /** Repository (registry and path). */
  readonly repository: string;
  /** A released version's tag. */
  readonly tag: string;
  /** What the image carries: the engine (or component) and its version. */
  readonly carries: string;
  /**
   * What the container runs: the image's own entrypoint when we set no command (how we know it),
   * or the command we set.
   */
  readonly runs: string;
  /** The parser definition the engine conformance check uses, when the image runs an engine we give arguments to. */
  readonly parser?: string;
  /** Why this version, where it is not the one every other provider runs. */
  readonly why?: string;
}

const VLLM_API_SERVER = 'the image\'s ENTRYPOINT, `python3 -m vllm.entrypoints.openai.api_server` (vLLM\'s docker/Dockerfile of the release)';

/** What one image is, whichever provider runs it. */
type ImageBody = Omit<DefaultImage, 'provider' | 'engine' | 'why'>;

/** The vLLM release the Direct vLLM, Kthena and modelplane providers run. */
const VLLM_0_11_0: ImageBody = {
  repository: 'vllm/vllm-openai',
  tag: 'v0.11.0',
  carries: 'vLLM 0.11.0',
  runs: VLLM_API_SERVER,
  parser: 'vllm-0.11.0-api-server',
};

/** The SGLang release the Kthena and modelplane providers run. */
const SGLANG_0_5_4: ImageBody = {
  repository: 'lmsysorg/sglang',
  tag: 'v0.5.4',
  carries: 'SGLang 0.5.4',
  runs: 'our command, `python3 -m sglang.launch_server`',
  parser: 'sglang-0.5.4-launch-server',
};

/** The Dynamo release every Dynamo image is tagged with (its images are one release). */
const DYNAMO_RELEASE = '1.1.1';

/** The default images, by provider then engine. */
export const DEFAULT_IMAGES: readonly DefaultImage[] = [
  {
    provider: 'vllm',
    engine: 'vllm',
    ...VLLM_0_11_0,
    why: 'AI Runway\'s `VLLM_VERSION` is `cu130-nightly`, a moving tag its controller pins at run time; built output has no such step, so the release the Kthena and modelplane providers run',
  },
  {
    provider: 'llmd',
    engine: 'vllm',
    repository: 'vllm/vllm-openai',
    tag: 'v0.9.1',
    carries: 'vLLM 0.9.1',
    runs: VLLM_API_SERVER,
    parser: 'vllm-0.9.1-api-server',
    why: 'AI Runway\'s llm-d default',
  },
  {
    provider: 'llmd',
    engine: 'endpoint-picker',
    repository: 'ghcr.io/llm-d/llm-d-inference-scheduler',
    tag: 'v0.6.0',
    carries: 'llm-d inference scheduler 0.6.0',
    runs: 'the image\'s entrypoint, with the EndpointPickerConfig we mount',
  },
  {
    provider: 'kthena',
    engine: 'vllm',
    ...VLLM_0_11_0,
  },
  {
    provider: 'kthena',
    engine: 'sglang',
    ...SGLANG_0_5_4,
  },
  {
    provider: 'modelplane',
    engine: 'vllm',
    ...VLLM_0_11_0,
  },
  {
    provider: 'modelplane',
    engine: 'sglang',
    ...SGLANG_0_5_4,
  },
  {
    provider: 'kuberay',
    engine: 'vllm',
    repository: 'rayproject/ray-llm',
    tag: '2.55.0-py311-cu128',
    carries: 'Ray 2.55.0 with Ray Serve LLM and vLLM (ray[llm] requires vLLM >= 0.18.0; 0.19.0 resolves with it on PyPI)',
    runs: 'KubeRay\'s `ray start` on every pod; Serve runs our serveConfigV2 (`build_openai_app` / `build_pd_openai_app`)',
    parser: 'ray-2.55.0-serve-llm',
  },
  {
    provider: 'dynamo',
    engine: 'vllm',
    repository: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.1.1 with vLLM 0.19.0',
    runs: 'our command, `python3 -m dynamo.vllm`',
    parser: 'dynamo-1.1.1-vllm',
    why: 'the Dynamo release AI Runway builds against (`versions.env`)',
  },
  {
    provider: 'dynamo',
    engine: 'sglang',
    repository: 'nvcr.io/nvidia/ai-dynamo/sglang-runtime',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.1.1 with SGLang 0.5.10.post1',
    runs: 'our command, `python3 -m dynamo.sglang`',
    parser: 'dynamo-1.1.1-sglang',
  },
  {
    provider: 'dynamo',
    engine: 'trtllm',
    repository: 'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.1.1 with TensorRT-LLM (not on PyPI: its parser runs with a stand-in module)',
    runs: 'our command, `python3 -m dynamo.trtllm`',
    parser: 'dynamo-1.1.1-trtllm',
  },
  {
    provider: 'dynamo',
    engine: 'endpoint-picker',
    repository: 'nvcr.io/nvidia/ai-dynamo/dynamo-frontend',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.1.1 frontend, as the graph\'s `Epp` service (the `Frontend` service runs the worker image, as AI Runway does)',
    runs: 'the image\'s entrypoint',
  },
  {
    provider: 'dynamo',
    engine: 'mocker',
    repository: 'nvcr.io/nvidia/ai-dynamo/dynamo-planner',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.1.1 mocker (GPU-less test backend)',
    runs: 'our commands, `python3 -m dynamo.mocker` and `python3 -m dynamo.frontend`',
    parser: 'dynamo-1.1.1-mocker',
  },
  {
    provider: 'dynamo',
    engine: 'model-downloader',
    repository: 'ghcr.io/ai-runway/airunway/model-downloader',
    tag: '0.3.0',
    carries: 'AI Runway\'s model downloader 0.3.0',
    runs: 'the image\'s entrypoint, in the model cache\'s download Job',
    why: 'AI Runway\'s own default is the moving `latest`; its release workflow tags images by semver without the git tag\'s `v` (release v0.3.0 is image 0.3.0)',
  },
  {
    provider: 'gateway',
    engine: 'endpoint-picker',
    repository: 'registry.k8s.io/gateway-api-inference-extension/epp',
    tag: 'v1.5.0',
    carries: 'Gateway API Inference Extension endpoint picker 1.5.0',
    runs: 'the image\'s entrypoint, with our EndpointPickerConfig',
  },
  {
    provider: 'gateway',
    engine: 'body-based-router',
    repository: 'registry.k8s.io/gateway-api-inference-extension/bbr',
    tag: 'v1.5.0',
    carries: 'Gateway API Inference Extension body-based router 1.5.0',
    runs: 'the image\'s entrypoint',
  },
];

/** The default image of `provider` for `engine`; throws for a pair the matrix does not have (a programming error). */
export function defaultImageOf(provider: string, engine: string): DefaultImage {
  const found = DEFAULT_IMAGES.find((d) => d.provider === provider && d.engine === engine);
  if (!found) throw new Error(`no default image of ${provider} for ${engine} in the version matrix`);
  return found;
}

/** `repository:tag` of the default image of `provider` for `engine`. */
export function defaultImageRef(provider: string, engine: string): string {
  const d = defaultImageOf(provider, engine);
  return `${d.repository}:${d.tag}`;
}
