/**
 * The series each engine exports on its metrics endpoint that the serving alerts read. Only
 * engines whose names we know get engine alerts; the "no ready replica" alert reads
 * kube-state-metrics and covers every engine.
 *
 * - vLLM (`/metrics` on its API port): `vllm:num_requests_waiting`, the KV-cache gauge (renamed
 *   in vLLM 0.10 from `vllm:gpu_cache_usage_perc` to `vllm:kv_cache_usage_perc`; the rule reads
 *   either), and the API server's `http_requests_total` (prometheus-fastapi-instrumentator,
 *   status grouped as `2xx`/`4xx`/`5xx`) for the error rate.
 * - SGLang (`/metrics` on its API port, only with `--enable-metrics`): `sglang:num_queue_reqs`
 *   and `sglang:token_usage` (share of the KV pool in use). SGLang has no counter of failed
 *   requests by status, so it gets no error-rate alert.
 * - TensorRT-LLM (through Dynamo) and llama.cpp (KAITO's AIKit image, which is not llama.cpp's
 *   own server and exports none of its `llamacpp:` series): no engine alerts.
 */

/** The PromQL pieces of one engine, each a function of the deployment's series selector. */
export interface EngineAlertSeries {
  /** Requests waiting to be scheduled, per pod. */
  readonly queue: (selector: string) => string;
  /** Share of the KV cache in use, 0 to 1, per pod. */
  readonly kvCache: (selector: string) => string;
  /** Requests per second that failed, and all requests per second; undefined when the engine counts no failures. */
  readonly errors?: {
    readonly failed: (selector: string) => string;
    readonly all: (selector: string) => string;
  };
}

/** `{a="1",b="2"}` with extra matchers appended to a selector of the same form. */
export function withMatchers(selector: string, ...matchers: string[]): string {
  const inner = selector.slice(1, -1);
  return `{${[inner, ...matchers].filter((m) => m !== '').join(',')}}`;
}

/** The engines with engine alerts, by `spec.engine.type`. */
export const ENGINE_ALERT_SERIES: Readonly<Record<string, EngineAlertSeries>> = {
  vllm: {
    queue: (s) => `vllm:num_requests_waiting${s}`,
    kvCache: (s) => `(vllm:kv_cache_usage_perc${s} or vllm:gpu_cache_usage_perc${s})`,
    errors: {
      // Only the OpenAI-compatible API: probes and scrapes would dilute the ratio.
      failed: (s) => `sum(rate(http_requests_total${withMatchers(s, 'handler=~"/v1/.*"', 'status="5xx"')}[5m]))`,
      all: (s) => `sum(rate(http_requests_total${withMatchers(s, 'handler=~"/v1/.*"')}[5m]))`,
    },
  },
  sglang: {
    queue: (s) => `sglang:num_queue_reqs${s}`,
    kvCache: (s) => `sglang:token_usage${s}`,
  },
};

/** Engines that serve `/metrics` only when a flag turns it on, with the flag. */
export const METRICS_FLAG: Readonly<Record<string, string>> = {
  sglang: '--enable-metrics',
};
