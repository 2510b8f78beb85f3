/**
 * Which pods of a ModelDeployment its policies select: the model servers, by the labels the
 * translators put on them (`src/core/labels.ts`), and the port they serve the API on.
 */
import type { ModelDeployment } from '../constructs/model-deployment';
import { LABEL_DEPLOYMENT, LABEL_MODEL_DEPLOYMENT } from '../core/labels';

/** The model-server pods of a deployment. */
export interface ModelServerPods {
  /**
   * `airunway.ai/model-deployment: <name>`: every provider puts it on the pods that serve the
   * API (the InferencePool and the providers' Services select by it); the endpoint picker and
   * the model download Job do not carry it.
   */
  readonly selector: Record<string, string>;
  /** Port of the OpenAI-compatible API, when the provider names one. */
  readonly port?: number;
  /**
   * Selectors of every pod of the deployment that talks to the model servers: the servers
   * themselves, and the worker pods of a multi-node replica (Ray, NCCL) and the prefill/decode
   * peers (KV transfer), which carry `airunway.ai/deployment: <name>` or the model-deployment label.
   */
  readonly peerSelectors: Array<Record<string, string>>;
}

/** The model-server pods of `deployment`, as its provider built them. */
export function modelServerPodsOf(deployment: ModelDeployment): ModelServerPods {
  const name = deployment.name;
  return {
    selector: { [LABEL_MODEL_DEPLOYMENT]: name },
    ...(deployment._modelServerPods && { port: deployment._modelServerPods.targetPort }),
    peerSelectors: [{ [LABEL_MODEL_DEPLOYMENT]: name }, { [LABEL_DEPLOYMENT]: name }],
  };
}
