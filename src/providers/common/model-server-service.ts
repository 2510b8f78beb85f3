import { k8s } from 'cdk8s-plus-34';
import type { Construct } from 'constructs';
import { commonLabels, objectMeta } from './metadata';
import { selectorLabels } from './pod-template';
import type { ResolvedModelDeployment } from '../../core/resolved-model-deployment';

/**
 * The ClusterIP Service in front of one model-server Deployment (Direct vLLM, llm-d): named like
 * the Deployment, selecting its pods, port `http` on the server's port.
 */
export function addModelServerService(scope: Construct, id: string, md: ResolvedModelDeployment, name: string, port: number): k8s.KubeService {
  return new k8s.KubeService(scope, id, {
    metadata: objectMeta(md, name, commonLabels(md)),
    spec: {
      type: 'ClusterIP',
      selector: selectorLabels(md, name),
      ports: [{ name: 'http', port, targetPort: k8s.IntOrString.fromNumber(port), protocol: 'TCP' }],
    },
  });
}
