/**
 * Autoscaling on LLM metrics. AI Runway's ModelDeployment has no field for it, so it is the
 * annotation `inference.cdk8s.io/autoscaling`, whose value is YAML (or JSON):
 *
 * ```yaml
 * metadata:
 *   annotations:
 *     inference.cdk8s.io/autoscaling: |
 *       minReplicas: 1            # default 1; 0 scales to zero (KEDA only, with a demand metric)
 *       maxReplicas: 4            # required, 1 to 32
 *       autoscaler: keda          # keda (default) or hpa, where the provider names a workload
 *       metrics:
 *         - type: queueDepth      # waiting requests per replica
 *           target: 5
 * ```
 *
 * The typed construct writes the same annotation from `scaling.autoscaling`. A fixed
 * `spec.scaling.replicas` and autoscaling are mutually exclusive (as in KServe): the autoscaler
 * owns the count, so defaulting adds no replica count either (src/admission/defaulting.ts).
 */
import { AUTOSCALING_METRIC_TYPES, AutoscalingMetricType, metricTypeDescription } from './metric-types';
import { Annotations, cachedAnnotationReader, parseAnnotationMapping, unknownKeyErrors } from '../../core/annotation-yaml';
import { FieldError, invalid, notSupported, required } from '../../core/field-error';
import { isHttpUrl } from '../../core/http-url';
import { isJsonObject } from '../../core/json-object';

/** ModelDeployment annotation asking for autoscaling. */
export const AUTOSCALING_ANNOTATION = 'inference.cdk8s.io/autoscaling';

/** Field path of the annotation, in messages. */
export const AUTOSCALING_ANNOTATION_PATH = `metadata.annotations[${JSON.stringify(AUTOSCALING_ANNOTATION)}]`;

/** AI Runway's replica ceiling (`spec.scaling.replicas` at most 32) bounds the autoscaler too. */
export const MAX_AUTOSCALED_REPLICAS = 32;

/** At most this many metrics: each is one Prometheus query every polling interval. */
export const MAX_AUTOSCALING_METRICS = 4;

/** A longer PromQL query is a mistake, not a query. */
export const MAX_QUERY_LENGTH = 4096;

/**
 * Bounds of a target: finer than a thousandth or beyond a billion is a typo, and within them every
 * value renders as a plain decimal in KEDA's metadata and in quantities.
 */
export const MIN_TARGET = 0.001;
export const MAX_TARGET = 1e9;

/** Larger values are refused before parsing. */
export const MAX_AUTOSCALING_ANNOTATION_BYTES = 16 * 1024;

/** Where KEDA queries Prometheus when the annotation names no address: prometheus-operator's governing Service. */
export const DEFAULT_PROMETHEUS_ADDRESS = 'http://prometheus-operated.monitoring.svc:9090';

/** What sets the replicas of a workload the provider names (`InferenceProvider.scaleTarget`). */
export type AutoscalerName = 'keda' | 'hpa';
const AUTOSCALERS: readonly AutoscalerName[] = ['keda', 'hpa'];

/** One metric the autoscaler keeps each replica at. */
export interface AutoscalingMetricSpec {
  readonly type: AutoscalingMetricType;
  /** Per replica: waiting or in-flight requests, KV-cache percent, requests per second, or the query's unit. */
  readonly target: number;
  /** `prometheus` only: the PromQL whose value, summed over replicas, is compared with `target`. */
  readonly query?: string;
  /** KEDA: the value above which a workload at zero replicas is woken. */
  readonly activationTarget?: number;
}

/** The annotation, checked, with its defaults applied. */
export interface AutoscalingSpec {
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** Unset: KEDA where the provider names a workload, else the target's own autoscaler. */
  readonly autoscaler?: AutoscalerName;
  readonly metrics: readonly AutoscalingMetricSpec[];
  readonly prometheusAddress: string;
  /** Synthesize a PodMonitor so Prometheus scrapes the model server pods. */
  readonly podMonitor: boolean;
  /** Seconds of low load before scaling in (and, with KEDA, before scaling to zero). */
  readonly cooldownSeconds?: number;
}

const KEYS = ['minReplicas', 'maxReplicas', 'autoscaler', 'metrics', 'prometheusAddress', 'podMonitor', 'cooldownSeconds'] as const;
const METRIC_KEYS = ['type', 'target', 'query', 'activationTarget'] as const;

/** Whether an autoscaler sets the deployment's replicas. */
export function isAutoscaled(annotations: Annotations): boolean {
  return annotations?.[AUTOSCALING_ANNOTATION] !== undefined;
}

/**
 * The deployment's autoscaling, or the problems of its annotation (each with its path under the
 * annotation). No annotation: no spec, no errors.
 */
export const readAutoscaling: (annotations: Annotations) => { spec?: AutoscalingSpec; errors: FieldError[] } =
  cachedAnnotationReader(AUTOSCALING_ANNOTATION, parseAutoscaling, { errors: [] });

/** The autoscaling of a deployment admission accepted (undefined when it has none). */
export function autoscalingOf(annotations: Annotations): AutoscalingSpec | undefined {
  return readAutoscaling(annotations).spec;
}

function parseAutoscaling(value: string): { spec?: AutoscalingSpec; errors: FieldError[] } {
  const P = AUTOSCALING_ANNOTATION_PATH;
  const parsed = parseAnnotationMapping(value, P, MAX_AUTOSCALING_ANNOTATION_BYTES,
    'a mapping with maxReplicas and metrics (and optionally minReplicas, autoscaler, prometheusAddress, podMonitor, cooldownSeconds)');
  const doc = parsed.doc;
  if (!doc) return { errors: parsed.errors };
  const errors: FieldError[] = unknownKeyErrors(doc, KEYS, P);

  const maxReplicas = doc.maxReplicas === undefined
    ? (errors.push(required(`${P}.maxReplicas`, `the most replicas the autoscaler may run, 1 to ${MAX_AUTOSCALED_REPLICAS}`)), undefined)
    : integerIn(doc.maxReplicas, `${P}.maxReplicas`, 1, MAX_AUTOSCALED_REPLICAS, errors);
  const minReplicas = doc.minReplicas === undefined ? 1 : integerIn(doc.minReplicas, `${P}.minReplicas`, 0, MAX_AUTOSCALED_REPLICAS, errors);
  if (minReplicas !== undefined && maxReplicas !== undefined && minReplicas > maxReplicas) {
    errors.push(invalid(`${P}.minReplicas`, minReplicas, `is more than maxReplicas (${maxReplicas})`));
  }

  let autoscaler: AutoscalerName | undefined;
  if (doc.autoscaler !== undefined) {
    if (typeof doc.autoscaler === 'string' && (AUTOSCALERS as readonly string[]).includes(doc.autoscaler)) autoscaler = doc.autoscaler as AutoscalerName;
    else errors.push(notSupported(`${P}.autoscaler`, doc.autoscaler, AUTOSCALERS));
  }

  const metrics = readMetrics(doc.metrics, `${P}.metrics`, errors);

  let prometheusAddress = DEFAULT_PROMETHEUS_ADDRESS;
  if (doc.prometheusAddress !== undefined) {
    if (typeof doc.prometheusAddress === 'string' && isHttpUrl(doc.prometheusAddress)) prometheusAddress = doc.prometheusAddress;
    else errors.push(invalid(`${P}.prometheusAddress`, doc.prometheusAddress, 'must be an http:// or https:// URL of the Prometheus API, e.g. ' + DEFAULT_PROMETHEUS_ADDRESS));
  }
  let podMonitor = true;
  if (doc.podMonitor !== undefined) {
    if (typeof doc.podMonitor === 'boolean') podMonitor = doc.podMonitor;
    else errors.push(invalid(`${P}.podMonitor`, doc.podMonitor, 'must be true or false'));
  }
  const cooldownSeconds = doc.cooldownSeconds === undefined ? undefined : integerIn(doc.cooldownSeconds, `${P}.cooldownSeconds`, 0, 86400, errors);

  if (errors.length > 0 || maxReplicas === undefined || minReplicas === undefined || metrics === undefined) return { errors };

  // Rules across fields, once each field is well-formed.
  if (autoscaler === 'hpa') {
    if (minReplicas === 0) {
      errors.push(invalid(`${P}.minReplicas`, 0, 'a HorizontalPodAutoscaler runs at least one replica (scale to zero needs the alpha HPAScaleToZero gate); use autoscaler: keda to scale to zero'));
    }
    metrics.forEach((m, i) => {
      if (m.type === 'prometheus' || m.type === 'inFlightRequests') {
        errors.push(invalid(`${P}.metrics[${i}].type`, m.type, `an HPA reads one pods metric per entry from the custom metrics API and cannot evaluate ${m.type === 'prometheus' ? 'a PromQL query' : 'a sum of two metrics'}; use autoscaler: keda`));
      }
      if (m.activationTarget !== undefined) {
        errors.push(invalid(`${P}.metrics[${i}].activationTarget`, m.activationTarget, 'only KEDA wakes a workload from zero; remove it, or use autoscaler: keda'));
      }
    });
  }
  if (errors.length > 0) return { errors };
  return {
    spec: {
      minReplicas,
      maxReplicas,
      ...(autoscaler !== undefined && { autoscaler }),
      metrics,
      prometheusAddress,
      podMonitor,
      ...(cooldownSeconds !== undefined && { cooldownSeconds }),
    },
    errors,
  };
}

function readMetrics(value: unknown, path: string, errors: FieldError[]): AutoscalingMetricSpec[] | undefined {
  if (value === undefined) {
    errors.push(required(path, `a list of 1 to ${MAX_AUTOSCALING_METRICS} metrics, each {type, target}; types: ${AUTOSCALING_METRIC_TYPES.join(', ')}`));
    return undefined;
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_AUTOSCALING_METRICS) {
    errors.push(invalid(path, value, `must be a list of 1 to ${MAX_AUTOSCALING_METRICS} metrics, each {type, target}`));
    return undefined;
  }
  const before = errors.length;
  const metrics: AutoscalingMetricSpec[] = [];
  const seen = new Map<string, number>();
  value.forEach((item, i) => {
    const p = `${path}[${i}]`;
    if (!isJsonObject(item)) {
      errors.push(invalid(p, item, 'must be a mapping {type, target}'));
      return;
    }
    errors.push(...unknownKeyErrors(item, METRIC_KEYS, p));
    const type = item.type;
    if (typeof type !== 'string' || !(AUTOSCALING_METRIC_TYPES as readonly string[]).includes(type)) {
      errors.push(type === undefined ? required(`${p}.type`, `one of ${AUTOSCALING_METRIC_TYPES.join(', ')}`) : notSupported(`${p}.type`, type, AUTOSCALING_METRIC_TYPES));
      return;
    }
    const metricType = type as AutoscalingMetricType;
    if (metricType !== 'prometheus') {
      const first = seen.get(metricType);
      if (first !== undefined) errors.push(invalid(`${p}.type`, type, `duplicates metrics[${first}]; give each metric once`));
      else seen.set(metricType, i);
    }
    const target = positiveNumber(item.target, `${p}.target`, metricTypeDescription(metricType), errors);
    if (metricType === 'kvCacheUsage' && target !== undefined && target > 100) {
      errors.push(invalid(`${p}.target`, target, 'is a percentage of the KV cache in use: at most 100'));
    }
    let query: string | undefined;
    if (metricType === 'prometheus') {
      if (typeof item.query !== 'string' || item.query.trim() === '' || item.query.length > MAX_QUERY_LENGTH) {
        errors.push(item.query === undefined
          ? required(`${p}.query`, 'the PromQL query whose value, summed over replicas, is compared with target')
          : invalid(`${p}.query`, item.query, `must be a PromQL query of 1 to ${MAX_QUERY_LENGTH} characters`));
      } else {
        query = item.query;
      }
    } else if (item.query !== undefined) {
      errors.push(invalid(`${p}.query`, item.query, `only a metric of type prometheus takes a query; ${metricType} has its own`));
    }
    let activationTarget: number | undefined;
    if (item.activationTarget !== undefined) {
      if (typeof item.activationTarget === 'number' && item.activationTarget >= 0 && item.activationTarget <= MAX_TARGET) activationTarget = item.activationTarget;
      else errors.push(invalid(`${p}.activationTarget`, item.activationTarget, `must be a number from 0 to ${MAX_TARGET}`));
    }
    if (target !== undefined) {
      metrics.push({ type: metricType, target, ...(query !== undefined && { query }), ...(activationTarget !== undefined && { activationTarget }) });
    }
  });
  return errors.length > before ? undefined : metrics;
}

function integerIn(value: unknown, path: string, min: number, max: number, errors: FieldError[]): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  errors.push(invalid(path, value, `must be an integer from ${min} to ${max}`));
  return undefined;
}

function positiveNumber(value: unknown, path: string, what: string, errors: FieldError[]): number | undefined {
  if (value === undefined) {
    errors.push(required(path, `the value per replica to keep: ${what}`));
    return undefined;
  }
  if (typeof value === 'number' && value >= MIN_TARGET && value <= MAX_TARGET) return value;
  errors.push(invalid(path, value, `must be a number from ${MIN_TARGET} to ${MAX_TARGET}: ${what}`));
  return undefined;
}
