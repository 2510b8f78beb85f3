/**
 * The objects that autoscale a deployment whose provider names a workload to scale
 * (`InferenceProvider.scaleTarget`): a KEDA `ScaledObject` with one Prometheus trigger per metric
 * (the default), or an `autoscaling/v2` HorizontalPodAutoscaler on pods metrics; and a Prometheus
 * Operator `PodMonitor` so the model server metrics the triggers query are scraped and labelled
 * with the deployment. Created by the shared pipeline after the provider's translation, so every
 * such provider gets the same objects. Providers whose target has its own autoscaler (Kthena's
 * AutoscalingPolicy, Ray Serve's) name no workload and translate the annotation themselves.
 */
import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { AutoscalerPlan, autoscalerPlanOf, readsModelServerMetrics } from './autoscaler-plan';
import { ENGINE_METRIC_SERIES, EngineMetricSeries, MODEL_DEPLOYMENT_SERIES_LABEL, podsMetricName, promQuery, thresholdOf } from '../api/autoscaling/metric-types';
import type { InferencePoolTarget, InferenceProvider } from '../api/provider/inference-provider';
import type { ResolvedModelDeployment } from '../api/resolved-model-deployment';
import { k8s } from '../core/kube-api';
import { canonicalDecimalQuantity, parseQuantity } from '../core/quantity';
import { ScaledObject } from '../imports/keda.sh';
import { PodMonitor, PodMonitorSpecPodMetricsEndpointsRelabelingsAction } from '../imports/monitoring.coreos.com';
import { commonLabels, objectMeta } from '../provider-kit/metadata';

/**
 * The autoscaler objects of a deployment that asks for autoscaling on a provider that names a
 * workload to scale; none otherwise (no autoscaling, or the target's own autoscaler).
 */
export function addAutoscalerFor(scope: Construct, md: ResolvedModelDeployment, provider: InferenceProvider): ApiObject[] {
  const plan = autoscalerPlanOf(md, provider);
  return plan ? addAutoscaler(scope, plan) : [];
}

/**
 * Adds the PodMonitor (id `PodMonitor`, when the spec asks for it and a model server metric is
 * used) and the ScaledObject (`ScaledObject`) or HPA (`HorizontalPodAutoscaler`), all named
 * after the deployment, and returns them.
 */
export function addAutoscaler(scope: Construct, plan: AutoscalerPlan): ApiObject[] {
  const objects: ApiObject[] = [];
  if (plan.spec.podMonitor && readsModelServerMetrics(plan.spec) && plan.pods) objects.push(addPodMonitor(scope, plan.md, plan.pods));
  objects.push((plan.spec.autoscaler ?? 'keda') === 'hpa' ? addHpa(scope, plan) : addScaledObject(scope, plan));
  return objects;
}

function addPodMonitor(scope: Construct, md: ResolvedModelDeployment, pods: InferencePoolTarget): ApiObject {
  return new PodMonitor(scope, 'PodMonitor', {
    metadata: objectMeta(md, md.name, commonLabels(md)),
    spec: {
      selector: { matchLabels: { ...pods.selector } },
      podMetricsEndpoints: [{
        portNumber: pods.targetPort,
        path: '/metrics',
        // A constant label on every series of the deployment: the queries select on it and the
        // namespace, whatever the pods' own labels are called.
        relabelings: [{
          action: PodMonitorSpecPodMetricsEndpointsRelabelingsAction.REPLACE,
          targetLabel: MODEL_DEPLOYMENT_SERIES_LABEL,
          replacement: md.name,
        }],
      }],
    },
  });
}

/** The engine's series; `autoscalerProviderErrors` admits engine metrics only for engines that have them. */
function seriesOf(md: ResolvedModelDeployment): EngineMetricSeries {
  return ENGINE_METRIC_SERIES[md.engine] ?? ENGINE_METRIC_SERIES.vllm;
}

function addScaledObject(scope: Construct, plan: AutoscalerPlan): ApiObject {
  const { md, spec, target } = plan;
  const series = seriesOf(md);
  const cooldown = spec.cooldownSeconds;
  return new ScaledObject(scope, 'ScaledObject', {
    metadata: objectMeta(md, md.name, commonLabels(md)),
    spec: {
      scaleTargetRef: { apiVersion: target.apiVersion, kind: target.kind, name: target.name },
      minReplicaCount: spec.minReplicas,
      maxReplicaCount: spec.maxReplicas,
      ...(cooldown !== undefined && {
        // cooldownPeriod only delays the step to zero; the HPA KEDA manages scales in after its
        // own stabilization window, so both get the value.
        ...(spec.minReplicas === 0 && { cooldownPeriod: cooldown }),
        advanced: { horizontalPodAutoscalerConfig: { behavior: { scaleDown: { stabilizationWindowSeconds: cooldown } } } },
      }),
      triggers: spec.metrics.map((m) => ({
        type: 'prometheus',
        name: m.type === 'prometheus' ? 'prometheus-query' : kebab(m.type),
        metadata: {
          serverAddress: spec.prometheusAddress,
          query: promQuery(m.type, series, md.namespace, md.name, m.query),
          threshold: decimal(thresholdOf(m.type, m.target)),
          ...(m.activationTarget !== undefined && { activationThreshold: decimal(thresholdOf(m.type, m.activationTarget)) }),
        },
      })),
    },
  });
}

function addHpa(scope: Construct, plan: AutoscalerPlan): ApiObject {
  const { md, spec, target } = plan;
  const series = seriesOf(md);
  return new k8s.KubeHorizontalPodAutoscalerV2(scope, 'HorizontalPodAutoscaler', {
    metadata: objectMeta(md, md.name, commonLabels(md)),
    spec: {
      scaleTargetRef: { apiVersion: target.apiVersion, kind: target.kind, name: target.name },
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      // Admission allows only the types an HPA can read as pods metrics.
      metrics: spec.metrics.map((m) => ({
        type: 'Pods',
        pods: {
          metric: { name: podsMetricName(m.type, series)! },
          target: { type: 'AverageValue', averageValue: k8s.Quantity.fromString(storedQuantity(thresholdOf(m.type, m.target))) },
        },
      })),
      ...(spec.cooldownSeconds !== undefined && { behavior: { scaleDown: { stabilizationWindowSeconds: spec.cooldownSeconds } } }),
    },
  });
}

/** The value as the API server stores the quantity (`0.8` → `800m`), so applied and stored agree. */
function storedQuantity(n: number): string {
  return canonicalDecimalQuantity(parseQuantity(decimal(n))!);
}

/** `queueDepth` → `queue-depth`: trigger names are lowercase. */
function kebab(type: string): string {
  return type.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A number as KEDA's string metadata and Kubernetes quantities read it: plain decimal, no exponent. */
function decimal(n: number): string {
  if (Number.isInteger(n)) return String(n);
  // Targets are at least 0.001 (a KV-cache percent of 0.001 is 0.00001): eight decimals keep every
  // value we derive exact enough without float noise such as 0.8000000000000002.
  return n.toFixed(8).replace(/0+$/, '').replace(/\.$/, '');
}
