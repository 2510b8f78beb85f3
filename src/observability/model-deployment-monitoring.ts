import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { METRICS_FLAG } from './engine-metrics';
import { MetricsTarget, metricsTargetOf, readinessWorkloadsOf } from './metrics-target';
import { promqlSyntaxErrors } from './promql-check';
import { AlertRule, servingAlertRules } from './serving-alerts';
import { MODEL_DEPLOYMENT_SERIES_LABEL } from '../api/autoscaling/metric-types';
import { Warnings } from '../api/warnings';
import type { ModelDeployment } from '../constructs/model-deployment';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError, invalid } from '../core/field-error';
import { labelValueErrors, qualifiedNameErrors } from '../core/kubernetes-names';
import { LABEL_DEPLOYMENT, LABEL_ENGINE_TYPE, LABEL_MANAGED_BY, MANAGED_BY_VALUE } from '../core/labels';
import {
  PodMonitor, PodMonitorSpecPodMetricsEndpointsRelabelingsAction, PrometheusRule, PrometheusRuleSpecGroupsRulesExpr,
} from '../imports/monitoring.coreos.com';

/**
 * Props of a `ModelDeploymentMonitoring`.
 */
export interface ModelDeploymentMonitoringProps {
  /** The deployment to monitor. Its objects must already be rendered (construct it first). */
  readonly deployment: ModelDeployment;

  /**
   * Whether to create a Prometheus Operator PodMonitor that scrapes the model server pods.
   * When the deployment already has one (its autoscaling scrapes the same pods), that one is
   * used instead: a second would duplicate every series.
   * @default true
   */
  readonly podMonitor?: boolean;

  /**
   * Whether to create a PrometheusRule with the serving alerts.
   * @default true
   */
  readonly alertRules?: boolean;

  /**
   * How often Prometheus scrapes each pod (whole seconds).
   * @default Duration.seconds(30)
   */
  readonly scrapeInterval?: Duration;

  /**
   * How long a scrape may take (whole seconds, at most `scrapeInterval`).
   * @default Duration.seconds(10)
   */
  readonly scrapeTimeout?: Duration;

  /**
   * Labels on the PodMonitor and the PrometheusRule, for the `podMonitorSelector` and
   * `ruleSelector` of your Prometheus (kube-prometheus-stack selects `release: <its release>`).
   * @default - only the deployment's labels
   */
  readonly labels?: { [key: string]: string };

  /**
   * Labels of the pods to scrape, for a provider whose pods cannot be found from its output
   * (Dynamo, KubeRay, modelplane, a custom provider). Set it together with `metricsPort`.
   * @default - the model server pods the provider names
   */
  readonly podSelector?: { [key: string]: string };

  /**
   * Container port serving the metrics, for the pods of `podSelector`.
   * @default - the model server's API port the provider names (vLLM and SGLang serve `/metrics` there)
   */
  readonly metricsPort?: number;

  /**
   * HTTP path of the metrics.
   * @default '/metrics'
   */
  readonly metricsPath?: string;

  /**
   * Requests waiting in one pod above which `LLMRequestQueueHigh` fires (vLLM, SGLang).
   * @default 10
   */
  readonly queueDepthThreshold?: number;

  /**
   * Percent of one pod's KV cache in use above which `LLMKVCacheNearlyFull` fires (vLLM, SGLang), 1 to 100.
   * @default 90
   */
  readonly kvCacheUsagePercent?: number;

  /**
   * Percent of API requests answered with a 5xx status above which `LLMHighErrorRate` fires (vLLM), above 0 and at most 100.
   * @default 5
   */
  readonly errorRatePercent?: number;

  /**
   * How long a queue, cache or error condition must hold before its alert fires (whole seconds).
   * @default Duration.minutes(5)
   */
  readonly alertFor?: Duration;

  /**
   * How long no replica may be ready before `LLMNoReadyReplica` fires (whole seconds). Loading a
   * large model takes minutes, so this is longer than `alertFor`.
   * @default Duration.minutes(15)
   */
  readonly noReadyReplicaFor?: Duration;

  /**
   * `severity` label of the queue and KV-cache alerts.
   * @default 'warning'
   */
  readonly warningSeverity?: string;

  /**
   * `severity` label of the error-rate and no-ready-replica alerts.
   * @default 'critical'
   */
  readonly criticalSeverity?: string;
}

const MAX_PORT = 65535;

const MODEL_DEPLOYMENT_MONITORING_BRAND = brandSymbol('ModelDeploymentMonitoring');

/**
 * Prometheus Operator monitoring for a `ModelDeployment`: a PodMonitor that scrapes the engine's
 * metrics endpoint on the model server pods (labelling every series `model_deployment: <name>`),
 * and a PrometheusRule with the alerts that matter for LLM serving — requests queueing, KV cache
 * nearly full, error rate (engine alerts for vLLM and SGLang; error rate for vLLM only) and no
 * ready replica (every engine, from kube-state-metrics). Both are named after the deployment, in
 * its namespace. Bad props are reported when the app synthesizes, with the prop, the value and
 * what is allowed.
 */
export class ModelDeploymentMonitoring extends Construct {
  /** True if `x` is a ModelDeploymentMonitoring (also one made by another copy of this library). */
  public static isModelDeploymentMonitoring(x: any): x is ModelDeploymentMonitoring {
    return hasBrand(x, MODEL_DEPLOYMENT_MONITORING_BRAND);
  }

  /** The PodMonitor scraping the deployment's pods (ours, or the one its autoscaling created); undefined when none. */
  public readonly podMonitor?: ApiObject;

  /** The PrometheusRule with the alerts; undefined when `alertRules` is false or there is nothing to alert on. */
  public readonly prometheusRule?: ApiObject;

  /** Names of the alerts in `prometheusRule`, in order. */
  public readonly alertNames: string[];

  public constructor(scope: Construct, id: string, props: ModelDeploymentMonitoringProps) {
    super(scope, id);
    addBrand(this, MODEL_DEPLOYMENT_MONITORING_BRAND);
    const errors: FieldError[] = [];
    this.node.addValidation({ validate: () => errors.map(formatFieldError) });
    this.alertNames = [];
    const md = props.deployment;
    // An invalid deployment reports its own errors and renders nothing to monitor.
    if (md.providerName === undefined || md.engineType === undefined) return;

    errors.push(...propErrors(props));
    const target = this.resolveTarget(props, errors);
    if (errors.length > 0) return;

    const labels = {
      [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
      [LABEL_DEPLOYMENT]: md.name,
      [LABEL_ENGINE_TYPE]: md.engineType,
      // Not one of the deployment's rendered objects: marks it as ours all the same.
      'app.kubernetes.io/part-of': 'cdk8s-inference',
      'app.kubernetes.io/component': 'monitoring',
      ...props.labels,
    };
    const metadata = { name: md.name, ...(md.namespace !== undefined && { namespace: md.namespace }), labels };

    const existing = md.apiObjects.find((o) => o.apiVersion === PodMonitor.GVK.apiVersion && o.kind === PodMonitor.GVK.kind);
    if ((props.podMonitor ?? true) && target) {
      if (existing) {
        this.podMonitor = existing;
        if (props.scrapeInterval || props.scrapeTimeout || props.metricsPath || props.metricsPort) {
          Warnings.add(this, `model deployment ${md.name} already has a PodMonitor (its autoscaling scrapes the same pods); ` +
            'scrapeInterval, scrapeTimeout, metricsPort and metricsPath do not apply to it');
        }
      } else {
        this.podMonitor = this.addPodMonitor(metadata, target, props);
      }
      const flag = METRICS_FLAG[md.engineType];
      if (flag && !JSON.stringify(md.apiObjects.map((o) => o.toJson())).includes(flag)) {
        Warnings.add(this, `engine ${md.engineType} serves /metrics only with ${flag}, which model deployment ${md.name} does not pass; ` +
          'add it to the engine args, or the PodMonitor finds nothing to scrape');
      }
    }

    if (props.alertRules ?? true) {
      const rules = servingAlertRules({
        name: md.name,
        namespace: md.namespace,
        engine: md.engineType,
        queueDepth: props.queueDepthThreshold ?? 10,
        kvCachePercent: props.kvCacheUsagePercent ?? 90,
        errorRatePercent: props.errorRatePercent ?? 5,
        alertFor: promDuration(props.alertFor ?? Duration.minutes(5)),
        noReadyReplicaFor: promDuration(props.noReadyReplicaFor ?? Duration.minutes(15)),
        warningSeverity: props.warningSeverity ?? 'warning',
        criticalSeverity: props.criticalSeverity ?? 'critical',
        workloads: target && !props.podSelector ? readinessWorkloadsOf(md.apiObjects, target.selector) : [],
        scraped: this.podMonitor !== undefined,
      });
      const syntax = rules.flatMap((r) => promqlSyntaxErrors(r.expr).map((e) => `alert ${r.alert}: ${e}`));
      if (syntax.length > 0) {
        // A generated expression is ours to get right: this is a bug, not bad input.
        throw new Error(`ModelDeploymentMonitoring generated invalid PromQL: ${syntax.join('; ')}`);
      }
      if (rules.length > 0) {
        this.prometheusRule = this.addRule(metadata, rules);
        this.alertNames.push(...rules.map((r) => r.alert));
      }
    }
  }

  /** The pods and port to scrape: the props' when given, else the provider's. */
  private resolveTarget(props: ModelDeploymentMonitoringProps, errors: FieldError[]): MetricsTarget | undefined {
    const md = props.deployment;
    if (props.podSelector) {
      if (props.metricsPort === undefined) {
        errors.push(invalid('metricsPort', undefined, 'required with podSelector: the pods the selector names serve metrics on a port only you know'));
        return undefined;
      }
      return { selector: { ...props.podSelector }, port: props.metricsPort };
    }
    const { target, reason } = metricsTargetOf(md);
    if (!target) {
      // Alerts that do not read the pods' metrics (kube-state-metrics) remain possible without a PodMonitor.
      if (props.podMonitor ?? true) {
        errors.push(invalid('podSelector', undefined,
          `cannot find the model server pods of ${md.name} (provider ${md.providerName}): ${reason}; set podSelector and metricsPort, or podMonitor: false`));
      }
      return undefined;
    }
    return { selector: target.selector, port: props.metricsPort ?? target.port };
  }

  private addPodMonitor(metadata: any, target: MetricsTarget, props: ModelDeploymentMonitoringProps): ApiObject {
    const md = props.deployment;
    return new PodMonitor(this, 'PodMonitor', {
      metadata,
      spec: {
        selector: { matchLabels: target.selector },
        podMetricsEndpoints: [{
          portNumber: target.port,
          path: props.metricsPath ?? '/metrics',
          interval: promDuration(props.scrapeInterval ?? Duration.seconds(30)),
          scrapeTimeout: promDuration(props.scrapeTimeout ?? Duration.seconds(10)),
          // The label the alerts select on, whatever the pods' own labels are (as the autoscaling PodMonitor does).
          relabelings: [{
            action: PodMonitorSpecPodMetricsEndpointsRelabelingsAction.REPLACE,
            targetLabel: MODEL_DEPLOYMENT_SERIES_LABEL,
            replacement: md.name,
          }],
        }],
      },
    });
  }

  private addRule(metadata: any, rules: AlertRule[]): ApiObject {
    return new PrometheusRule(this, 'PrometheusRule', {
      metadata,
      spec: {
        groups: [{
          name: `llm-serving.${metadata.name}`,
          rules: rules.map((r) => ({
            alert: r.alert,
            expr: PrometheusRuleSpecGroupsRulesExpr.fromString(r.expr),
            for: r.for,
            labels: r.labels,
            annotations: r.annotations,
          })),
        }],
      },
    });
  }
}

/** A Prometheus duration (`30s`, `5m`, `1h`) of whole seconds. */
function promDuration(d: Duration): string {
  const s = d.toSeconds();
  if (s % 3600 === 0) return `${s / 3600}h`;
  if (s % 60 === 0) return `${s / 60}m`;
  return `${s}s`;
}

function wholeSecondsError(path: string, d: Duration | undefined, errors: FieldError[]): void {
  if (d === undefined) return;
  const ms = d.toMilliseconds();
  if (!Number.isFinite(ms) || ms < 1000 || ms % 1000 !== 0) {
    errors.push(invalid(path, `${ms}ms`, 'must be a whole number of seconds, at least 1s'));
  }
}

function percentError(path: string, value: number | undefined, errors: FieldError[]): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value <= 0 || value > 100) errors.push(invalid(path, value, 'must be a percentage above 0 and at most 100'));
}

function labelsErrors(path: string, labels: { [key: string]: string } | undefined, errors: FieldError[]): void {
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const e of qualifiedNameErrors(k)) errors.push(invalid(`${path}[${JSON.stringify(k)}]`, k, `invalid label key: ${e}`));
    for (const e of labelValueErrors(v)) errors.push(invalid(`${path}[${JSON.stringify(k)}]`, v, `invalid label value: ${e}`));
  }
}

/** Every problem of the props that does not depend on the deployment. */
function propErrors(props: ModelDeploymentMonitoringProps): FieldError[] {
  const errors: FieldError[] = [];
  for (const [path, d] of [['scrapeInterval', props.scrapeInterval], ['scrapeTimeout', props.scrapeTimeout], ['alertFor', props.alertFor],
    ['noReadyReplicaFor', props.noReadyReplicaFor]] as const) {
    wholeSecondsError(path, d, errors);
  }
  const interval = (props.scrapeInterval ?? Duration.seconds(30)).toMilliseconds();
  const timeout = (props.scrapeTimeout ?? Duration.seconds(10)).toMilliseconds();
  if (errors.length === 0 && timeout > interval) {
    errors.push(invalid('scrapeTimeout', promDuration(Duration.millis(timeout)), `must not exceed scrapeInterval (${promDuration(Duration.millis(interval))})`));
  }
  const q = props.queueDepthThreshold;
  if (q !== undefined && (!Number.isFinite(q) || q < 0)) errors.push(invalid('queueDepthThreshold', q, 'must be a number of requests, 0 or more'));
  percentError('kvCacheUsagePercent', props.kvCacheUsagePercent, errors);
  percentError('errorRatePercent', props.errorRatePercent, errors);
  const port = props.metricsPort;
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > MAX_PORT)) errors.push(invalid('metricsPort', port, `must be a port number, 1 to ${MAX_PORT}`));
  const path = props.metricsPath;
  if (path !== undefined && (!path.startsWith('/') || /\s/.test(path))) errors.push(invalid('metricsPath', path, 'must be an absolute HTTP path without whitespace, e.g. /metrics'));
  for (const [p, sev] of [['warningSeverity', props.warningSeverity], ['criticalSeverity', props.criticalSeverity]] as const) {
    if (sev !== undefined) for (const e of labelValueErrors(sev)) errors.push(invalid(p, sev, `must be a label value: ${e}`));
    if (sev === '') errors.push(invalid(p, sev, 'must not be empty'));
  }
  labelsErrors('labels', props.labels, errors);
  labelsErrors('podSelector', props.podSelector, errors);
  if (props.podSelector && Object.keys(props.podSelector).length === 0) errors.push(invalid('podSelector', {}, 'must name at least one label: an empty selector scrapes every pod in the namespace'));
  return errors;
}
