/**
 * The AutoscalingPolicy of an autoscaled Kthena deployment (see `./autoscaling.ts` for what it
 * scales on), built with the typed `KthenaAutoscalingPolicy`, whose checks it passes.
 */
import { ApiObject, Duration } from 'cdk8s';
import type { Construct } from 'constructs';
import { KTHENA_ENGINE_PORT } from './args';
import { kthenaMetricSeries } from './autoscaling';
import { deploymentPodSelector, kthenaRoles } from './roles';
import { AutoscalingSpec, autoscalingOf } from '../../api/autoscaling/autoscaling-annotation';
import { thresholdOf } from '../../api/autoscaling/metric-types';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { KthenaAutoscalingPolicy } from '../../kthena/autoscaling-policy';
import { KthenaMetricSource } from '../../kthena/metric-source';
import type { IKthenaModelServing } from '../../kthena/model-serving-props';
import { KthenaScalingTarget } from '../../kthena/scaling-target';
import { commonLabels } from '../../provider-kit/metadata';

/** The AutoscalingPolicy `<md>` (id `AutoscalingPolicy`) scaling `serving`; none without autoscaling. */
export function addKthenaAutoscalingPolicy(scope: Construct, md: ResolvedModelDeployment, serving: IKthenaModelServing): ApiObject[] {
  const spec = autoscalingOf(md.annotations);
  if (!spec) return [];
  const policy = new KthenaAutoscalingPolicy(scope, 'AutoscalingPolicy', {
    metadata: { name: md.name, ...(md.namespace !== undefined && { namespace: md.namespace }), labels: commonLabels(md) },
    metrics: spec.metrics.map((m) => ({ name: m.type, targetValue: thresholdOf(m.type, m.target) })),
    target: KthenaScalingTarget.homogeneous({
      serving,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      metricSources: metricSources(md, spec),
    }),
    ...(spec.cooldownSeconds !== undefined && { behavior: { scaleDown: { stabilizationWindow: Duration.seconds(spec.cooldownSeconds) } } }),
  });
  return [policy.apiObject];
}

function metricSources(md: ResolvedModelDeployment, spec: AutoscalingSpec): { [metric: string]: KthenaMetricSource } {
  const series = kthenaMetricSeries(md.engine);
  // The worker pods of a multi-node role run no server and expose no metrics on the port: only
  // the entry pods, which carry the serving label, are scraped.
  const multiNode = kthenaRoles(md).some((role) => role.workerReplicas > 0);
  // The engine serves its metrics on its API port; Kthena's default is its runtime sidecar's.
  return Object.fromEntries(spec.metrics.map((m) => [m.type, KthenaMetricSource.pod({
    seriesName: series[m.type],
    port: KTHENA_ENGINE_PORT,
    ...(multiNode && { matchLabels: deploymentPodSelector(md) }),
  })]));
}
