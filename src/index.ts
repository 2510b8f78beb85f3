export * from './api/autoscaling/autoscaling';
export * from './api/provider/deployment-feature';
export * from './constructs/device-class';
export * from './api/devices/devices';
export * from './provider-kit/device-claims';
export * from './api/gateway/endpoint-picker-resources';
export * from './api/engine';
export * from './core/field-error-types';
export * from './api/gateway/gateway';
export * from './api/provider/inference-provider';
export * from './api/provider/inference-provider-config';
export * from './api/lora/lora';
export * from './api/model';
export * from './constructs/model-deployment';
export * from './constructs/model-deployment-props';
export * from './constructs/model-deployment-controller';
export * from './api/multi-node/multi-node';
export * from './api/node-pool';
export * from './api/provider/provider-options';
export * from './constructs/provider-registry';
export * from './api/provider/provider-status';
export * from './api/resolved-deployment';
export * from './api/resources';
export * from './api/scaling';
export * from './api/serving';
export * from './api/storage';
export * from './api/warnings';
export * from './gateway/body-based-router';
export * from './api/gateway/endpoint-picker-choice';

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
