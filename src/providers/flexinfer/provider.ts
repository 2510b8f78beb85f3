import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { flexInferProviderConfig } from './config';
import { ENGINE_BACKENDS } from './engine-config';
import { reconcileModelStatus } from './status';
import { FLEXINFER_DISPLAY_NAME, flexInferWarnings, validateFlexInfer } from './validation';
import { InferencePoolTarget, InferenceProvider } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment } from '../../api/resolved-model-deployment';
import type { FieldError } from '../../core/field-error';
import { FLEXINFER_MODEL_API_VERSION, FLEXINFER_MODEL_KIND, FLEXINFER_MODEL_POD_LABEL } from '../../flexinfer/model-spec-json';
import { PERSISTENT_VOLUME_CLAIM_KIND } from '../../provider-kit/kinds';
import { toStatusReport } from '../../provider-kit/reconciled-status';

/**
 * Settings of the FlexInfer target that hold for every deployment on it. Per-deployment FlexInfer
 * settings (GPU sharing and priority, scale-to-zero, cache strategy, LiteLLM discovery) are the
 * `inference.cdk8s.io/flexinfer-*` annotations of the ModelDeployment.
 */
export interface FlexInferProviderProps {
  /**
   * Image of vllm Models whose deployment names no image (`engine.image`). Recommended on AMD:
   * FlexInfer's built-in vLLM images for gfx110x and gfx906 point at a private registry.
   * @default - 'vllm/vllm-openai:v0.33.0' (the version matrix's vLLM) on NVIDIA GPUs; otherwise FlexInfer picks the image for the vendor and architecture it detects
   */
  readonly vllmImage?: string;

  /**
   * Image of llamacpp Models whose deployment names no image.
   * @default - FlexInfer picks the image for the GPU vendor (or CPU) it detects
   */
  readonly llamaCppImage?: string;
}

/**
 * FlexInfer (`flexinfer`): one `ai.flexinfer/v1alpha2` Model per deployment, which FlexInfer's
 * controller turns into a Deployment and a Service — vLLM on NVIDIA or AMD GPUs, llama.cpp on GPUs
 * or CPU, with optional GPU time-sharing between models and scale-to-zero. Selected only when a
 * deployment names it (`provider.name: flexinfer`).
 */
export class FlexInferProvider extends InferenceProvider {
  private readonly options: FlexInferProviderProps;

  public constructor(props: FlexInferProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(flexInferProviderConfig()), displayName: FLEXINFER_DISPLAY_NAME });
    this.options = { vllmImage: props.vllmImage, llamaCppImage: props.llamaCppImage };
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateFlexInfer(fromResolvedDeployment(deployment), this.options);
  }

  /** Settings FlexInfer ignores, GPUs it leaves idle, scheduling it imposes. */
  public warnings(deployment: ResolvedDeployment): string[] {
    return flexInferWarnings(fromResolvedDeployment(deployment), this.options);
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34 and the generated bindings, which
    // the controller (validate and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateFlexInfer } = require('./translator') as typeof import('./translator');
    return translateFlexInfer(scope, fromResolvedDeployment(deployment), this.options);
  }

  /**
   * FlexInfer labels a Model's serving pods with `flexinfer.ai/model: <model>` and serves on its
   * backend's port (vllm 8000, llamacpp 8080).
   */
  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    const backend = ENGINE_BACKENDS[deployment.engineType as string];
    if (!backend?.port) return undefined;
    return { selector: { [FLEXINFER_MODEL_POD_LABEL]: deployment.name }, targetPort: backend.port };
  }

  public emittedKinds(): UpstreamKind[] {
    return [{ apiVersion: FLEXINFER_MODEL_API_VERSION, kind: FLEXINFER_MODEL_KIND, resource: 'models' }, PERSISTENT_VOLUME_CLAIM_KIND];
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: FLEXINFER_MODEL_API_VERSION, kind: FLEXINFER_MODEL_KIND, name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return toStatusReport(reconcileModelStatus(upstream));
  }
}
