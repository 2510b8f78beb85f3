import { labelMapErrors, portErrors } from './checks';
import { FieldError, invalid, required } from '../core/field-error';
import { isHttpUrl } from '../core/http-url';

/** Where the pods of a scaling target expose a metric. */
export interface KthenaPodMetricOptions {
  /**
   * The Prometheus series to read in the pods' scraped output, e.g. `vllm:num_requests_waiting`.
   * @default - the metric's own name (the key it is given under)
   */
  readonly seriesName?: string;

  /**
   * HTTP path of the pods' metrics.
   * @default '/metrics'
   */
  readonly path?: string;

  /**
   * Port of the pods' metrics: 8100 is Kthena's runtime sidecar; vLLM itself serves `/metrics`
   * on its API port (8000 by default).
   * @default 8100
   */
  readonly port?: number;

  /**
   * Scrape only the target's pods with these labels, e.g. one role's.
   * @default - every pod of the target
   */
  readonly matchLabels?: { [key: string]: string };
}

/**
 * Where the autoscaler reads a metric (a value of `metricSources`): scraped from the target's
 * pods, or queried from Prometheus. Exactly one of the two, which the factories guarantee.
 */
export class KthenaMetricSource {
  /** Scrape the metric from each pod of the target. */
  public static pod(options: KthenaPodMetricOptions = {}): KthenaMetricSource {
    return new KthenaMetricSource(options, undefined);
  }

  /**
   * Query it from a Prometheus server.
   * @param serverUrl base URL of the Prometheus HTTP API, e.g. `http://prometheus.monitoring.svc:9090`
   * @param query a PromQL instant query that returns one value, e.g. `avg(vllm:num_requests_waiting)`
   */
  public static prometheus(serverUrl: string, query: string): KthenaMetricSource {
    return new KthenaMetricSource(undefined, { serverUrl, query });
  }

  private readonly podOptions?: KthenaPodMetricOptions;
  private readonly prometheusOptions?: { serverUrl: string; query: string };

  private constructor(podOptions: KthenaPodMetricOptions | undefined, prometheusOptions: { serverUrl: string; query: string } | undefined) {
    this.podOptions = podOptions;
    this.prometheusOptions = prometheusOptions;
  }

  /** The source in the L1's shape (camel-cased `serverUrl`) and its problems at `path`. @internal */
  public _render(path: string): { json: any; errors: FieldError[] } {
    const errors: FieldError[] = [];
    if (this.prometheusOptions) {
      const { serverUrl, query } = this.prometheusOptions;
      if (!isHttpUrl(serverUrl)) {
        errors.push(invalid(`${path}.prometheus.serverURL`, serverUrl, 'must be the http:// or https:// URL of the Prometheus API, e.g. http://prometheus.monitoring.svc:9090'));
      }
      if (query.trim() === '') errors.push(required(`${path}.prometheus.query`, 'needs a PromQL query'));
      return { json: { prometheus: { serverUrl, query } }, errors };
    }
    const o = this.podOptions ?? {};
    if (o.path !== undefined && !o.path.startsWith('/')) errors.push(invalid(`${path}.pod.uri`, o.path, 'must start with "/"'));
    errors.push(...portErrors(`${path}.pod.port`, o.port));
    errors.push(...labelMapErrors(`${path}.pod.labelSelector.matchLabels`, o.matchLabels));
    const pod = {
      ...(o.seriesName !== undefined && { name: o.seriesName }),
      ...(o.path !== undefined && { uri: o.path }),
      ...(o.port !== undefined && { port: o.port }),
      ...(o.matchLabels && Object.keys(o.matchLabels).length > 0 && { labelSelector: { matchLabels: { ...o.matchLabels } } }),
    };
    return { json: { pod }, errors };
  }
}
