import { leaderWorkerSetRef } from './leader-worker-set-kind';
import { isMultiNodeComponent, ServingComponent } from './multi-node-layout';
import type { ScaleTargetRef } from '../api/provider/inference-provider';
import type { ResolvedDeployment } from '../api/resolved-deployment';

/**
 * The workload that runs a component's pods on the Deployment-based providers (Direct vLLM,
 * llm-d): a Deployment, or a LeaderWorkerSet of the same name when each replica spans nodes.
 * Autoscalers scale it and the controller maps its status.
 */
export function servingWorkloadRef(deployment: ResolvedDeployment, component: ServingComponent, name: string): ScaleTargetRef {
  if (isMultiNodeComponent(deployment, component)) return leaderWorkerSetRef(name);
  return { apiVersion: 'apps/v1', kind: 'Deployment', name };
}
