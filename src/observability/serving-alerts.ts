/**
 * The alerting rules of one model deployment: the alerts that matter for LLM serving, in
 * PromQL over the engine's own series (engine-metrics.ts) and kube-state-metrics.
 *
 * | Alert | Reads | Engines |
 * |---|---|---|
 * | `LLMRequestQueueHigh` | waiting requests per pod | vLLM, SGLang |
 * | `LLMKVCacheNearlyFull` | KV cache in use per pod | vLLM, SGLang |
 * | `LLMHighErrorRate` | share of API requests answered 5xx | vLLM |
 * | `LLMNoReadyReplica` | available replicas of the serving workloads (kube-state-metrics), else the scrape targets | all |
 *
 * The engine series are selected by the `model_deployment` label the PodMonitor writes on every
 * series it scrapes from the deployment's pods, and by namespace.
 */
import { ENGINE_ALERT_SERIES } from './engine-metrics';
import type { ReadinessWorkload } from './metrics-target';
import { MODEL_DEPLOYMENT_SERIES_LABEL } from '../api/autoscaling/metric-types';

/** One alerting rule, as it goes into a PrometheusRule group. */
export interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: { [key: string]: string };
  readonly annotations: { [key: string]: string };
}

/** What the rules are built from; thresholds already checked. */
export interface ServingAlertInput {
  readonly name: string;
  readonly namespace?: string;
  readonly engine: string;
  /** Waiting requests per pod above which the queue alert fires. */
  readonly queueDepth: number;
  /** KV cache in use per pod, in percent, above which the cache alert fires. */
  readonly kvCachePercent: number;
  /** Failed requests, in percent of all, above which the error alert fires. */
  readonly errorRatePercent: number;
  /** `for` of the engine alerts, a Prometheus duration. */
  readonly alertFor: string;
  /** `for` of the no-ready-replica alert, a Prometheus duration. */
  readonly noReadyReplicaFor: string;
  readonly warningSeverity: string;
  readonly criticalSeverity: string;
  /** Workloads kube-state-metrics reports on; empty to judge by the scrape targets instead. */
  readonly workloads: readonly ReadinessWorkload[];
  /** Whether this deployment's pods are scraped by a PodMonitor that writes `model_deployment` (the scrape-target fallback needs it). */
  readonly scraped: boolean;
}

/** `{namespace="ml",<extra>}` for kube-state-metrics or our own series. */
function selector(namespace: string | undefined, ...matchers: string[]): string {
  return `{${[...(namespace !== undefined ? [`namespace=${JSON.stringify(namespace)}`] : []), ...matchers].join(',')}}`;
}

/** A regex matcher value matching exactly these names. */
function exactly(names: readonly string[]): string {
  return JSON.stringify(names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
}

/** A number as PromQL and people read it: no exponent, no trailing zeros. */
function num(n: number): string {
  return String(Number(n.toFixed(6)));
}

/** The rules for one deployment, in a stable order. */
export function servingAlertRules(input: ServingAlertInput): AlertRule[] {
  const who = input.namespace !== undefined ? `${input.namespace}/${input.name}` : input.name;
  const s = selector(input.namespace, `${MODEL_DEPLOYMENT_SERIES_LABEL}=${JSON.stringify(input.name)}`);
  const labels = (severity: string) => ({ severity, [MODEL_DEPLOYMENT_SERIES_LABEL]: input.name });
  const rules: AlertRule[] = [];
  const series = ENGINE_ALERT_SERIES[input.engine];
  if (series) {
    rules.push({
      alert: 'LLMRequestQueueHigh',
      expr: `max by (namespace, pod) (${series.queue(s)}) > ${num(input.queueDepth)}`,
      for: input.alertFor,
      labels: labels(input.warningSeverity),
      annotations: {
        summary: `Requests are queueing on model deployment ${who}`,
        description: `Pod {{ $labels.pod }} has had more than ${num(input.queueDepth)} requests waiting for ${input.alertFor} ` +
          '(now {{ $value }}): the replicas cannot keep up; add replicas or lower the load.',
      },
    });
    rules.push({
      alert: 'LLMKVCacheNearlyFull',
      expr: `max by (namespace, pod) (${series.kvCache(s)}) > ${num(input.kvCachePercent / 100)}`,
      for: input.alertFor,
      labels: labels(input.warningSeverity),
      annotations: {
        summary: `The KV cache of model deployment ${who} is nearly full`,
        description: `Pod {{ $labels.pod }} has used more than ${num(input.kvCachePercent)}% of its KV cache for ${input.alertFor} ` +
          '(now {{ $value | humanizePercentage }}): new requests wait or running ones are preempted.',
      },
    });
    if (series.errors) {
      rules.push({
        alert: 'LLMHighErrorRate',
        expr: `${series.errors.failed(s)} / ${series.errors.all(s)} > ${num(input.errorRatePercent / 100)}`,
        for: input.alertFor,
        labels: labels(input.criticalSeverity),
        annotations: {
          summary: `Model deployment ${who} is failing requests`,
          description: `More than ${num(input.errorRatePercent)}% of the API requests to ${who} have failed with a 5xx status ` +
            `for ${input.alertFor} (now {{ $value | humanizePercentage }}).`,
        },
      });
    }
  }
  const noReady = noReadyReplicaExpr(input, s);
  if (noReady) {
    rules.push({
      alert: 'LLMNoReadyReplica',
      expr: noReady,
      for: input.noReadyReplicaFor,
      labels: labels(input.criticalSeverity),
      annotations: {
        summary: `Model deployment ${who} has no ready replica`,
        description: `No replica of ${who} has been ready for ${input.noReadyReplicaFor}: the model is not being served.`,
      },
    });
  }
  return rules;
}

/**
 * No replica ready while some are wanted (a deployment scaled to zero on purpose does not fire):
 * from kube-state-metrics for the workloads we render, else no scrape target of the deployment up.
 */
function noReadyReplicaExpr(input: ServingAlertInput, own: string): string | undefined {
  const parts: string[] = [];
  const deployments = input.workloads.filter((w) => w.kind === 'Deployment').map((w) => w.name);
  if (deployments.length > 0) {
    const d = selector(input.namespace, `deployment=~${exactly(deployments)}`);
    parts.push(`(kube_deployment_status_replicas_available${d} == 0 and on (namespace, deployment) kube_deployment_spec_replicas${d} > 0)`);
  }
  const sets = input.workloads.filter((w) => w.kind === 'StatefulSet').map((w) => w.name);
  if (sets.length > 0) {
    const st = selector(input.namespace, `statefulset=~${exactly(sets)}`);
    parts.push(`(kube_statefulset_status_replicas_ready${st} == 0 and on (namespace, statefulset) kube_statefulset_replicas${st} > 0)`);
  }
  if (parts.length > 0) return parts.join(' or ');
  // Operator-managed pods (KAITO, FlexInfer, Kthena): judged by whether any pod answers scrapes.
  return input.scraped ? `absent(up${own} == 1)` : undefined;
}
