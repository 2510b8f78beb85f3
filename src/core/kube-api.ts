/**
 * The Kubernetes API bindings of cdk8s-plus-34 (its `k8s` namespace), imported from the one module
 * that defines them. Importing `k8s` from 'cdk8s-plus-34' loads cdk8s-plus's whole index — every
 * L2 construct — which cost each CLI start about 25 ms more; the translators only need the
 * bindings. Types in the public API keep `import type { k8s } from 'cdk8s-plus-34'`: the same
 * declarations.
 */
export * as k8s from 'cdk8s-plus-34/lib/imports/k8s';
