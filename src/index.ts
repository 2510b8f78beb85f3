export * from './api/autoscaling';
export * from './api/deployment-feature';
export * from './api/device-class';
export * from './api/devices';
export * from './api/endpoint-picker-resources';
export * from './api/engine';
export * from './api/field-error';
export * from './api/gateway';
export * from './api/inference-provider';
export * from './api/inference-provider-config';
export * from './api/lora';
export * from './api/model';
export * from './api/model-deployment';
export * from './api/model-deployment-controller';
export * from './api/multi-node';
export * from './api/node-pool';
export * from './api/provider-options';
export * from './api/provider-registry';
export * from './api/provider-status';
export * from './api/resolved-deployment';
export * from './api/resources';
export * from './api/scaling';
export * from './api/serving';
export * from './api/storage';
export * from './api/warnings';
export * from './gateway/body-based-router';
export * from './gateway/endpoint-picker-choice';

// Pod security level of model servers, and optional policies for a deployment's pods.
export * from './policy';
export * from './observability/model-deployment-monitoring';

// The shipped providers: one class each, whose props carry the provider's settings.
export * from './providers/dynamo';
export * from './providers/flexinfer';
export * from './flexinfer';
export * from './providers/kaito';
export * from './providers/kthena';
export * from './kthena';
export * from './providers/kuberay';
export * from './providers/llmd';
export * from './providers/modelplane';
export * from './modelplane';
export * from './providers/vllm';

// Generated L1 bindings of the upstream CRDs, under namespaces so they are never mistaken for
// the hand-written API (regenerate with `npx projen import`).
export * as airunway from './imports/airunway.ai';
export * as dynamo from './imports/nvidia.com';
export * as kuberay from './imports/ray.io';
export * as kaito from './imports/kaito.sh';
export * as gaie from './imports/inference.networking.k8s.io';
export * as gaieAlpha from './imports/inference.networking.x-k8s.io';
export * as gateway from './imports/gateway.networking.k8s.io';
export * as lws from './imports/leaderworkerset.x-k8s.io';
export * as kthena from './imports/workload.serving.volcano.sh';
export * as kthenaNetworking from './imports/networking.serving.volcano.sh';
export * as modelplane from './imports/modelplane.ai';
export * as flexinfer from './imports/ai.flexinfer';
