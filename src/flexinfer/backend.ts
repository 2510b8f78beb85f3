/**
 * What this library knows about one backend of FlexInfer's registry: the port its server listens
 * on (the Service port and the `status.endpoint` port) and whether it can run without a GPU.
 */
interface BackendFacts {
  readonly port: number;
  readonly cpu: boolean;
}

/** Facts per canonical registry name (FlexInfer's backend table). */
const KNOWN_BACKENDS: Readonly<Record<string, BackendFacts>> = {
  'vllm': { port: 8000, cpu: false },
  'vllm-omni': { port: 8000, cpu: false },
  'llamacpp': { port: 8080, cpu: true },
  'ollama': { port: 11434, cpu: false },
  'mlc-llm': { port: 8000, cpu: false },
  'diffusers': { port: 8000, cpu: false },
  'comfyui': { port: 8188, cpu: false },
};

/**
 * The fixed spellings FlexInfer's registry folds onto a canonical name after lower-casing. A
 * lookup that misses here keeps the lower-cased name.
 */
const ALIASES: Readonly<Record<string, string>> = {
  'llama.cpp': 'llamacpp',
  'llama-cpp': 'llamacpp',
  'llama_cpp': 'llamacpp',
  'mlc': 'mlc-llm',
  'mlc_llm': 'mlc-llm',
  'mlc-llm-chat': 'mlc-llm',
  'comfy': 'comfyui',
  'comfy-ui': 'comfyui',
  'comfy_ui': 'comfyui',
  'vllm-diffusion': 'vllm-omni',
  'vllm_omni': 'vllm-omni',
};

/** The registry name FlexInfer resolves `name` to: lower-cased, then its aliases applied. */
export function canonicalBackendName(name: string): string {
  const lower = name.trim().toLowerCase();
  return ALIASES[lower] ?? lower;
}

/**
 * A FlexInfer inference backend (`spec.backend`): a name in FlexInfer's backend registry, which
 * picks the server image, command line, port and probes of the model's pods. The registry is
 * open (a FlexInfer build can add backends), so besides the built-in backends any name is
 * accepted through `FlexInferBackend.of()`.
 */
export class FlexInferBackend {
  /** vLLM's OpenAI-compatible server (GPU: NVIDIA or AMD). Port 8000. */
  public static readonly VLLM = new FlexInferBackend('vllm');
  /** vLLM-Omni for image generation (GPU). Port 8000. */
  public static readonly VLLM_OMNI = new FlexInferBackend('vllm-omni');
  /** llama.cpp's `llama-server` for GGUF models (GPU or CPU). Port 8080. */
  public static readonly LLAMA_CPP = new FlexInferBackend('llamacpp');
  /** Ollama, which pulls `ollama://` models on demand (GPU). Port 11434. */
  public static readonly OLLAMA = new FlexInferBackend('ollama');
  /** MLC LLM (GPU). Port 8000. */
  public static readonly MLC_LLM = new FlexInferBackend('mlc-llm');
  /** A diffusers image-generation API (GPU). Port 8000. */
  public static readonly DIFFUSERS = new FlexInferBackend('diffusers');
  /** ComfyUI (GPU). Port 8188. */
  public static readonly COMFYUI = new FlexInferBackend('comfyui');

  /**
   * A backend by its registry name or one of its aliases (`llama.cpp`, `mlc`, ...), written to
   * `spec.backend` as given. Prefer the canonical name: FlexInfer infers LiteLLM capabilities
   * and labels the pods from the literal value.
   */
  public static of(name: string): FlexInferBackend {
    return new FlexInferBackend(name);
  }

  /** The value of `spec.backend`. */
  public readonly name: string;

  private constructor(name: string) {
    this.name = name;
  }

  /** The registry name FlexInfer resolves this backend to. */
  public get canonicalName(): string {
    return canonicalBackendName(this.name);
  }

  /**
   * The port the backend's server listens on, which FlexInfer's Service exposes.
   * @returns undefined for a backend this library does not know
   */
  public get port(): number | undefined {
    return KNOWN_BACKENDS[this.canonicalName]?.port;
  }

  /**
   * Whether the backend runs CPU-only (`gpu.vendor: cpu`, or no `gpu` at all).
   * @returns undefined for a backend this library does not know
   */
  public get supportsCpu(): boolean | undefined {
    return KNOWN_BACKENDS[this.canonicalName]?.cpu;
  }
}
