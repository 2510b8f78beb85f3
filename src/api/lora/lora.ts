import { adapterSourceUri } from './adapter-source';

/**
 * Where a LoRA adapter's weights come from: a Hugging Face repository, downloaded before the
 * engine starts, or a directory of a PersistentVolumeClaim in the deployment's namespace, mounted
 * read-only. Checked when the deployment is synthesized, with the adapter's field path.
 */
export class LoraSource {
  /**
   * A Hugging Face repository (`hf://<org>/<repo>[@<revision>]`), downloaded into the serving pod
   * by an init container with the deployment's Hugging Face token, when one is configured.
   * @param repo the repository id, `<org>/<repo>`
   * @param revision a branch, tag or commit; the repository's default branch when omitted
   */
  public static huggingFace(repo: string, revision?: string): LoraSource {
    return new LoraSource(adapterSourceUri({ kind: 'huggingFace', repo, ...(revision !== undefined && { revision }) }));
  }

  /**
   * A directory of a PersistentVolumeClaim in the deployment's namespace
   * (`pvc://<claim>[/<path>]`), mounted read-only into the serving pod.
   * @param claimName the claim, a DNS label
   * @param path the adapter's directory inside the claim, relative; the claim's root when omitted
   */
  public static persistentVolumeClaim(claimName: string, path?: string): LoraSource {
    return new LoraSource(adapterSourceUri({ kind: 'persistentVolumeClaim', claimName, path: path ?? '' }));
  }

  /**
   * A source written as in the annotation: `hf://<org>/<repo>[@<revision>]` or
   * `pvc://<claim>[/<path>]`.
   */
  public static fromUri(uri: string): LoraSource {
    return new LoraSource(uri);
  }

  /** The source as the annotation `inference.cdk8s.io/lora` writes it. */
  public readonly uri: string;

  private constructor(uri: string) {
    this.uri = uri;
  }
}

/**
 * One LoRA adapter served beside the base model.
 */
export interface LoraAdapter {
  /**
   * The model name clients send (`"model": "<name>"`) to use the adapter, and the name the
   * routes match: 1 to 63 letters, digits, `-`, `_` and `.`, starting with a letter or digit,
   * unique, and not the base model's name.
   */
  readonly name: string;

  /** Where the adapter's weights come from. */
  readonly source: LoraSource;
}

/**
 * LoRA adapters of a deployment (annotation `inference.cdk8s.io/lora`). Served by vLLM on the
 * `vllm`, `llmd` and `kthena` providers; every other target fails the synth naming the ones that
 * carry them.
 */
export interface LoraOptions {
  /** The adapters, 1 to 32 (10 on Kthena, whose ModelRoute lists at most 10). */
  readonly adapters: LoraAdapter[];

  /**
   * The largest rank among the adapters (vLLM `--max-lora-rank`): 8, 16, 32, 64, 128, 256, 320
   * or 512. An adapter of a higher rank fails to load.
   * @default - vLLM's default (16)
   */
  readonly maxRank?: number;

  /**
   * Adapters one batch can mix (vLLM `--max-loras`), from 1 to the number of adapters; each takes
   * a slot of GPU memory.
   * @default - the number of adapters
   */
  readonly maxLoras?: number;
}

/** The annotation's value for typed options: the same YAML a user would write. */
/** @internal */
export function loraAnnotationValue(options: LoraOptions): Record<string, unknown> {
  return {
    adapters: options.adapters.map((a) => ({ name: a.name, source: a.source.uri })),
    ...(options.maxRank !== undefined && { maxRank: options.maxRank }),
    ...(options.maxLoras !== undefined && { maxLoras: options.maxLoras }),
  };
}
