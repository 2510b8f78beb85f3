import type { Construct } from 'constructs';
import { commonLabels, objectMeta } from './metadata';
import { selectorLabels } from './pod-template';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { k8s } from '../core/kube-api';

/**
 * The ClusterIP Service in front of one model-server Deployment (Direct vLLM, llm-d): named like
 * the Deployment, selecting its pods, port `http` on the server's port. `leaderLabels` narrow the
 * selector to the leader pods of a LeaderWorkerSet rendered in the Deployment's place, the only
 * pods of a multi-node replica that serve HTTP.
 */
export function addModelServerService(
  scope: Construct,
  id: string,
  md: ResolvedModelDeployment,
  name: string,
  port: number,
  leaderLabels: Readonly<Record<string, string>> = {},
): k8s.KubeService {
  return new k8s.KubeService(scope, id, {
    metadata: objectMeta(md, name, commonLabels(md)),
    spec: {
      type: 'ClusterIP',
      selector: { ...selectorLabels(md, name), ...leaderLabels },
      ports: [{ name: 'http', port, targetPort: k8s.IntOrString.fromNumber(port), protocol: 'TCP' }],
    },
  });
}
