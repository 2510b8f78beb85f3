export * from './engine';
export * from './field-error';
export * from './gateway';
export * from './inference-provider';
export * from './inference-provider-config';
export * from './model';
export * from './model-deployment';
export * from './provider-options';
export * from './provider-registry';
export * from './provider-status';
export * from './resolved-deployment';
export * from './resources';
export * from './scaling';
export * from './serving';
export * from './storage';
export * from './warnings';

// The shipped providers: one class each, whose props carry the provider's settings.
export * from './providers/dynamo';
export * from './providers/kaito';
export * from './providers/kuberay';
export * from './providers/llmd';
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
