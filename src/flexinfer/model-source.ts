/** URI schemes FlexInfer's controller understands in `spec.source` (matched case-sensitively). */
export const SOURCE_SCHEMES = ['HF://', 'ollama://', 'file://', 'pvc://'] as const;

/**
 * Where a FlexInfer Model's weights come from (`spec.source`). FlexInfer matches the scheme
 * case-sensitively, so the factories spell it the way the controller expects (`HF://` in
 * capitals).
 */
export class FlexInferModelSource {
  /**
   * A Hugging Face repository (`HF://org/model`). With the SharedPVC or Local cache strategy a
   * prefetch Job downloads it before the server starts; otherwise the server downloads it.
   * @param repoId the repository id, e.g. `Qwen/Qwen3-0.6B`
   */
  public static huggingFace(repoId: string): FlexInferModelSource {
    return new FlexInferModelSource(`HF://${repoId}`);
  }

  /**
   * A model of the Ollama registry (`ollama://llama3:8b`), pulled by the ollama backend itself.
   * @param model name and tag, e.g. `llama3:8b`
   */
  public static ollama(model: string): FlexInferModelSource {
    return new FlexInferModelSource(`ollama://${model}`);
  }

  /**
   * A path that already exists inside the serving container (`file:///models/llama`).
   * @param path an absolute path
   */
  public static file(path: string): FlexInferModelSource {
    return new FlexInferModelSource(`file://${path}`);
  }

  /**
   * A directory (or GGUF file) on an existing PersistentVolumeClaim (`pvc://<claim>/<subPath>`).
   * FlexInfer mounts the claim at `/models` and serves `/models/<subPath>`.
   * @param claimName the claim, in the Model's namespace
   * @param subPath path inside the claim; default: the claim's root
   */
  public static persistentVolumeClaim(claimName: string, subPath?: string): FlexInferModelSource {
    const path = (subPath ?? '').replace(/^\/+/, '');
    return new FlexInferModelSource(`pvc://${claimName}${path ? `/${path}` : ''}`);
  }

  /**
   * A source URI as FlexInfer takes it; its form is checked at synth.
   * @param uri e.g. `HF://Qwen/Qwen3-0.6B`
   */
  public static fromUri(uri: string): FlexInferModelSource {
    return new FlexInferModelSource(uri);
  }

  /** The value of `spec.source`. */
  public readonly uri: string;

  private constructor(uri: string) {
    this.uri = uri;
  }
}

/** The scheme `uri` starts with, or undefined. */
export function sourceScheme(uri: string): (typeof SOURCE_SCHEMES)[number] | undefined {
  return SOURCE_SCHEMES.find((s) => uri.startsWith(s));
}
