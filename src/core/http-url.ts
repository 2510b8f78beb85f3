/**
 * An http:// or https:// URL with a host and no whitespace, such as the base URL of the Prometheus
 * HTTP API. A CRD's `format: uri` would also take `prometheus.monitoring:9090`, with
 * `prometheus.monitoring` as its scheme, which no client can call.
 */
export function isHttpUrl(value: string): boolean {
  if (value.length > 2048 || !/^https?:\/\/\S+$/.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}
