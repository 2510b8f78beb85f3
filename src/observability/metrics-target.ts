/**
 * Where a rendered ModelDeployment's model server metrics are: the labels of its model server
 * pods and the port serving `/metrics`, and the workloads kube-state-metrics reports on.
 *
 * The pods and port come from the provider itself (`InferenceProvider.inferencePoolTarget`, the
 * same answer the InferencePool and the autoscaling PodMonitor use), as it answered when it
 * translated the deployment. vLLM and SGLang serve
 * `/metrics` on that API port. Providers whose pods serve no engine metrics there, or whose pods
 * are not in this cluster, are refused with the reason, unless the caller names pods and port.
 */
import type { ApiObject } from 'cdk8s';
import type { ModelDeployment } from '../constructs/model-deployment';

/** The model server pods of a deployment and where they serve metrics. */
export interface MetricsTarget {
  readonly selector: { [key: string]: string };
  readonly port: number;
}

/** A workload whose readiness kube-state-metrics reports: a Deployment, or a LeaderWorkerSet's leader StatefulSet. */
export interface ReadinessWorkload {
  readonly kind: 'Deployment' | 'StatefulSet';
  readonly name: string;
}

/** Providers whose pool target is not a metrics endpoint of the pods in this cluster, and why. */
const UNSCRAPED_PROVIDERS: Readonly<Record<string, string>> = {
  kuberay: 'its pods serve the API through Ray Serve\'s proxy, which exports no engine metrics (Ray exports them on its own metrics port, renamed)',
  dynamo: 'the Dynamo operator names and labels the pods of a graph itself',
  modelplane: 'its pods run on the clusters of the modelplane fleet, not in this one',
};

/**
 * The provider's pods and port for metrics, or why there are none.
 * @returns `{ target }`, or `{ reason }` (a sentence fragment that completes "cannot scrape ...: ")
 */
export function metricsTargetOf(md: ModelDeployment): { target?: MetricsTarget; reason?: string } {
  const name = md.providerName!;
  const unscraped = UNSCRAPED_PROVIDERS[name];
  if (unscraped) return { reason: unscraped };
  // What the provider named when it translated the deployment (the InferencePool's target too).
  const pool = md._modelServerPods;
  if (!pool) return { reason: `provider ${name} names no model server pods for this deployment` };
  return { target: { selector: { ...pool.selector }, port: pool.targetPort } };
}

/**
 * The Deployments and LeaderWorkerSets among the rendered objects whose pods the selector
 * matches (the model servers, not the endpoint picker or a download Job). A LeaderWorkerSet's
 * leaders run in a StatefulSet of its name, which kube-state-metrics reports on.
 */
export function readinessWorkloadsOf(objects: readonly ApiObject[], selector: { [key: string]: string }): ReadinessWorkload[] {
  // Labels the LWS controller adds to the pods (the leader's worker index) are not in the templates.
  const templateSelector = Object.entries(selector).filter(([k]) => !k.startsWith('leaderworkerset.sigs.k8s.io/'));
  const matches = (labels: any) => labels && templateSelector.every(([k, v]) => labels[k] === v);
  const out: ReadinessWorkload[] = [];
  for (const o of objects) {
    if (o.apiVersion === 'apps/v1' && o.kind === 'Deployment') {
      if (matches(o.toJson().spec?.template?.metadata?.labels)) out.push({ kind: 'Deployment', name: o.name });
    } else if (o.apiVersion.startsWith('leaderworkerset.x-k8s.io/') && o.kind === 'LeaderWorkerSet') {
      const t = o.toJson().spec?.leaderWorkerTemplate;
      if (matches(t?.leaderTemplate?.metadata?.labels) || matches(t?.workerTemplate?.metadata?.labels)) out.push({ kind: 'StatefulSet', name: o.name });
    }
  }
  return out;
}
