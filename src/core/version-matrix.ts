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

/** What every vLLM container we start runs: our command, not the image's entrypoint (see VLLM_0_33_0). */
const VLLM_SERVE = 'our command, `vllm serve <model>` (the model as the positional; `--model` is deprecated since vLLM 0.20)';

/** What one image is, whichever provider runs it. */
type ImageBody = Omit<DefaultImage, 'provider' | 'engine' | 'why'>;

/**
 * The vLLM release every provider that starts vLLM itself runs (Direct vLLM, llm-d, Kthena,
 * modelplane, FlexInfer). The image's own ENTRYPOINT is `vllm serve` from v0.20 on (vLLM's
 * docker/Dockerfile in the 0.33.0 sdist) and `python3 -m vllm.entrypoints.openai.api_server`
 * before; we set the command ourselves, so the program is the same on a pinned older image.
 */
const VLLM_0_33_0: ImageBody = {
  repository: 'vllm/vllm-openai',
  tag: 'v0.33.0',
  carries: 'vLLM 0.33.0',
  runs: VLLM_SERVE,
  parser: 'vllm-0.33.0-serve',
};

/** The SGLang release the Kthena and modelplane providers run. */
const SGLANG_0_5_23: ImageBody = {
  repository: 'lmsysorg/sglang',
  tag: 'v0.5.23',
  carries: 'SGLang 0.5.23',
  runs: 'our command, `python3 -m sglang.launch_server`',
  parser: 'sglang-0.5.23-launch-server',
};

/** The Dynamo release every Dynamo image is tagged with (its images are one release). */
const DYNAMO_RELEASE = '1.6.1';

/** The default images, by provider then engine. */
export const DEFAULT_IMAGES: readonly DefaultImage[] = [
  {
    provider: 'vllm',
    engine: 'vllm',
    ...VLLM_0_33_0,
    why: 'AI Runway\'s `VLLM_VERSION` is `cu130-nightly`, a moving tag its controller pins at run time; built output has no such step, so the current release',
  },
  {
    provider: 'llmd',
    engine: 'vllm',
    ...VLLM_0_33_0,
    why: 'AI Runway\'s llm-d default is vLLM 0.9.1; we run the one vLLM release every provider runs',
  },
  {
    provider: 'llmd',
    engine: 'endpoint-picker',
    repository: 'ghcr.io/llm-d/llm-d-router-endpoint-picker',
    tag: 'v0.10.0',
    carries: 'llm-d Router endpoint picker 0.10.0 (the llm-d inference scheduler, renamed; GAIE\'s EPP moved into it)',
    runs: 'the image\'s entrypoint, with the `llm-d.ai/v1alpha1` EndpointPickerConfig we mount',
  },
  {
    provider: 'llmd',
    engine: 'endpoint-picker-gaie-v1.5',
    repository: 'ghcr.io/llm-d/llm-d-inference-scheduler',
    tag: 'v0.6.0',
    carries: 'llm-d inference scheduler 0.6.0 (built on GAIE 1.x)',
    runs: 'the image\'s entrypoint, with the `inference.networking.x-k8s.io/v1alpha1` EndpointPickerConfig we mount',
    why: 'only with `EndpointPicker.GAIE_V1_5`: the picker llm-d deployments had before the llm-d Router',
  },
  {
    provider: 'kthena',
    engine: 'vllm',
    ...VLLM_0_33_0,
  },
  {
    provider: 'kthena',
    engine: 'sglang',
    ...SGLANG_0_5_23,
  },
  {
    provider: 'modelplane',
    engine: 'vllm',
    ...VLLM_0_33_0,
  },
  {
    provider: 'modelplane',
    engine: 'sglang',
    ...SGLANG_0_5_23,
  },
  {
    provider: 'flexinfer',
    engine: 'vllm',
    ...VLLM_0_33_0,
    runs: 'FlexInfer\'s command, `vllm serve --model <model>` (FlexInfer\'s controller writes it; vLLM 0.33.0 accepts the deprecated `--model`)',
    why: 'FlexInfer\'s own NVIDIA default is the moving `vllm/vllm-openai:latest`; on AMD GPUs FlexInfer keeps choosing its image',
  },
  {
    provider: 'kuberay',
    engine: 'vllm',
    repository: 'rayproject/ray-llm',
    tag: '2.60.0-py312-cu130',
    carries: 'Ray 2.60.0 with Ray Serve LLM and vLLM 0.29.0 (ray[llm]==2.60.0 pins vllm[audio]==0.29.0)',
    runs: 'KubeRay\'s `ray start` on every pod; Serve runs our serveConfigV2 (`build_openai_app` / `build_pd_openai_app`)',
    parser: 'ray-2.60.0-serve-llm',
    why: 'the current Ray release. Ray publishes its LLM images as py312-cu130 since it retired the py311-cu128 ones '
      + '(ray-project/ray#62458; 2.57.0, 2.58.0 and 2.59.0 are tagged so); the 2.60.0 tag follows that naming and '
      + 'could not be read from the registry here',
  },
  {
    provider: 'dynamo',
    engine: 'vllm',
    repository: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.6.1 with vLLM 0.31.0 (the version ai-dynamo[vllm]==1.6.1 pins)',
    runs: 'our command, `python3 -m dynamo.vllm`',
    parser: 'dynamo-1.6.1-vllm',
    why: 'the current Dynamo release (AI Runway installs 1.5.0; both run nvidia.com/v1beta1 graphs and the native endpoint picker)',
  },
  {
    provider: 'dynamo',
    engine: 'sglang',
    repository: 'nvcr.io/nvidia/ai-dynamo/sglang-runtime',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.6.1 with SGLang 0.5.21 (the version ai-dynamo[sglang]==1.6.1 pins)',
    runs: 'our command, `python3 -m dynamo.sglang`',
    parser: 'dynamo-1.6.1-sglang',
  },
  {
    provider: 'dynamo',
    engine: 'trtllm',
    repository: 'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.6.1 with TensorRT-LLM 1.3.0rc29 (the version ai-dynamo[trtllm]==1.6.1 pins; not on PyPI: its parser runs with a stand-in module)',
    runs: 'our command, `python3 -m dynamo.trtllm`',
    parser: 'dynamo-1.6.1-trtllm',
  },
  {
    provider: 'dynamo',
    engine: 'endpoint-picker',
    repository: 'nvcr.io/nvidia/ai-dynamo/dynamo-frontend',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.6.1 frontend, as the graph\'s `Epp` service (the `Frontend` service runs the worker image, as AI Runway does)',
    runs: 'the image\'s entrypoint',
  },
  {
    provider: 'dynamo',
    engine: 'mocker',
    repository: 'nvcr.io/nvidia/ai-dynamo/dynamo-planner',
    tag: DYNAMO_RELEASE,
    carries: 'Dynamo 1.6.1 mocker (GPU-less test backend)',
    runs: 'our commands, `python3 -m dynamo.mocker` and `python3 -m dynamo.frontend`',
    parser: 'dynamo-1.6.1-mocker',
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
    repository: 'ghcr.io/llm-d/llm-d-router-endpoint-picker',
    tag: 'v0.10.0',
    carries: 'llm-d Router endpoint picker 0.10.0',
    runs: 'the image\'s entrypoint, with our `llm-d.ai/v1alpha1` EndpointPickerConfig',
    why: 'GAIE v1.6.0 removed its endpoint picker, which moved to the llm-d Router',
  },
  {
    provider: 'gateway',
    engine: 'endpoint-picker-gaie-v1.5',
    repository: 'registry.k8s.io/gateway-api-inference-extension/epp',
    tag: 'v1.5.0',
    carries: 'Gateway API Inference Extension endpoint picker 1.5.0',
    runs: 'the image\'s entrypoint, with our `inference.networking.x-k8s.io/v1alpha1` EndpointPickerConfig',
    why: 'only with `EndpointPicker.GAIE_V1_5`: the last GAIE release with an endpoint picker',
  },
  {
    provider: 'gateway',
    engine: 'body-based-router',
    repository: 'registry.k8s.io/gateway-api-inference-extension/bbr',
    tag: 'v1.5.0',
    carries: 'Gateway API Inference Extension body-based router 1.5.0',
    runs: 'the image\'s entrypoint',
    why: 'the last GAIE release with a body-based router (v1.6.0 removed it); the llm-d Router 0.10.0 ships none',
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
