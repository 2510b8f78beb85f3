import { parseRuntimeVersion } from './runtime-version';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { imageOverride } from '../../core/model-deployment-object';
import { defaultImageOf } from '../../core/version-matrix';

/** Tag of every default Dynamo image: the Dynamo release of the version matrix's Dynamo rows. */
export const DYNAMO_VERSION = defaultImageOf('dynamo', 'vllm').tag;

/** The default images of one Dynamo release. */
export interface DynamoImages {
  /** vLLM worker runtime (also the fallback for engines without their own runtime). */
  readonly vllm: string;
  /** SGLang worker runtime. */
  readonly sglang: string;
  /** TensorRT-LLM worker runtime. */
  readonly trtllm: string;
  /** Default image of the endpoint-picker (`Epp`) service. */
  readonly epp: string;
  /** Image of the mocker test backend (workers and frontend). */
  readonly mocker: string;
}

/** The default images tagged `version` (the version matrix's Dynamo repositories). */
export function dynamoImages(version: string = DYNAMO_VERSION): DynamoImages {
  const image = (component: string) => `${defaultImageOf('dynamo', component).repository}:${version}`;
  return {
    vllm: image('vllm'),
    sglang: image('sglang'),
    trtllm: image('trtllm'),
    epp: image('endpoint-picker'),
    mocker: image('mocker'),
  };
}

/** The engine's default runtime image; the vLLM runtime for any engine without one. */
export function defaultWorkerImage(engine: string, images: DynamoImages): string {
  switch (engine) {
    case 'sglang':
      return images.sglang;
    case 'trtllm':
      return images.trtllm;
    default:
      return images.vllm;
  }
}

/**
 * The image of every worker (and of the `Frontend` service): in mocker mode the mocker image,
 * whatever else is set; otherwise the image override (`spec.engine.image`, then `spec.image`);
 * otherwise the engine's runtime.
 */
export function dynamoWorkerImage(md: ResolvedModelDeployment, images: DynamoImages, mocker: boolean): string {
  if (mocker) return images.mocker;
  return imageOverride(md.spec) ?? defaultWorkerImage(md.engine, images);
}

/** The tag of an image reference (`repo:tag@digest` → `tag`), undefined when it has none. */
export function imageTag(image: string): string | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return colon >= 0 ? withoutDigest.slice(colon + 1) : undefined;
}

/**
 * True when the image reference carries a tag that starts with a semantic version (`1.6.1`,
 * `v0.9.0-cuda12`). Dynamo's admission (1.5 and later) derives a component's runtime version
 * from that tag and otherwise requires `runtimeVersionOverride`.
 */
export function hasSemverTag(image: string): boolean {
  const tag = imageTag(image);
  return tag !== undefined && parseRuntimeVersion(tag) !== undefined;
}
