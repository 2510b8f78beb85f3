// The public jsii API, in the order of the floors (projenrc/layers.ts): the types a deployment is
// written in, then what providers build with, then the constructs.

// The public types: a deployment's props and the structs and enums they take.
export * from './api/engine';
export * from './api/model';
export * from './api/resources';
export * from './api/scaling';
export * from './api/serving';
export * from './api/storage';
export * from './api/node-pool';
export * from './api/autoscaling/autoscaling';
export * from './api/devices/devices';
export * from './api/gateway/gateway';
export * from './api/gateway/endpoint-picker-choice';
export * from './api/gateway/endpoint-picker-resources';
export * from './api/lora/lora';
export * from './api/multi-node/multi-node';
export * from './api/warnings';
export * from './core/field-error-types';

// The provider contract: what a provider is, is told and answers.
export * from './api/provider/inference-provider';
export * from './api/provider/inference-provider-config';
export * from './api/provider/provider-options';
export * from './api/provider/provider-status';
export * from './api/provider/deployment-feature';
export * from './api/resolved-deployment';
export * from './provider-kit/device-claims';

// The constructs: the deployment, the registry it resolves against, the controller that keeps
// its status, and what attaches to it.
export * from './constructs/model-deployment';
export * from './constructs/model-deployment-props';
export * from './constructs/provider-registry';
export * from './constructs/model-deployment-controller';
export * from './constructs/device-class';
export * from './gateway/body-based-router';
export * from './policy';
export * from './observability/model-deployment-monitoring';

// The shipped providers (one class each, whose props carry the provider's settings), and the
// typed L2 constructs of the systems that have them.
export * from './providers/dynamo';
export * from './providers/kaito';
export * from './providers/kuberay';
export * from './providers/llmd';
export * from './providers/vllm';
export * from './providers/kthena';
export * from './kthena';
export * from './providers/modelplane';
export * from './modelplane';
export * from './providers/flexinfer';
export * from './flexinfer';

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
