/**
 * Multi-node replicas as a deployment extension (`pipeline/deployment-extensions.ts`): admission
 * checks what needs no engine — the annotation itself, GPU counts that do not fill whole nodes,
 * MIG profiles — and a provider that does not carry `DeploymentFeature.MULTI_NODE` is refused by
 * the framework. The engine-dependent layout (tensor × pipeline parallel sizes) is checked by each
 * provider that carries it (`deploymentMultiNode`), since only it knows which flags reach the engine.
 */
import { MULTI_NODE_ANNOTATION, MULTI_NODE_ANNOTATION_PATH, readMultiNodeAnnotation } from '../api/multi-node/multi-node-annotation';
import { DeploymentFeature } from '../api/provider/deployment-feature';
import type { DeploymentExtension } from '../provider-kit/deployment-extension';
import { multiNodeAdmissionErrors } from '../provider-kit/multi-node-layout';

/** The multi-node extension: annotation `inference.cdk8s.io/multi-node`. */
export const MULTI_NODE_EXTENSION: DeploymentExtension = {
  feature: DeploymentFeature.MULTI_NODE,
  annotation: MULTI_NODE_ANNOTATION,
  path: MULTI_NODE_ANNOTATION_PATH,
  errors: (md) => multiNodeAdmissionErrors(md, readMultiNodeAnnotation(md.annotations).errors),
};
