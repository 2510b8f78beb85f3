/**
 * A small Prometheus registry: counters, gauges and histograms with labels, written in the text
 * exposition format (version 0.0.4) that Prometheus scrapes from `/metrics`.
 */

/** Label values of one series, by label name. */
export type Labels = Readonly<Record<string, string>>;

/** The content type of `MetricsRegistry.expose()`. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

abstract class Metric<T> {
  public abstract readonly type: 'counter' | 'gauge' | 'histogram';

  protected readonly series = new Map<string, { labels: Labels; value: T }>();

  public constructor(public readonly name: string, public readonly help: string, public readonly labelNames: readonly string[]) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`invalid metric name ${JSON.stringify(name)}`);
  }

  /** The text exposition of this metric's samples (without HELP and TYPE). */
  public abstract samples(): string[];

  protected entry(labels: Labels, initial: () => T): { labels: Labels; value: T } {
    const key = this.keyOf(labels);
    let e = this.series.get(key);
    if (!e) {
      e = { labels: Object.fromEntries(this.labelNames.map((n) => [n, labels[n]])), value: initial() };
      this.series.set(key, e);
    }
    return e;
  }

  private keyOf(labels: Labels): string {
    for (const name of Object.keys(labels)) {
      if (!this.labelNames.includes(name)) throw new Error(`${this.name} has no label ${JSON.stringify(name)}`);
    }
    return JSON.stringify(
      this.labelNames.map((n) => {
        const v = labels[n];
        if (typeof v !== 'string') throw new Error(`${this.name} needs label ${JSON.stringify(n)}`);
        return v;
      }),
    );
  }
}

/** A value that only goes up. */
export class Counter extends Metric<number> {
  public readonly type = 'counter';

  public inc(labels: Labels = {}, by = 1): void {
    if (by < 0) throw new Error(`${this.name}: a counter cannot decrease`);
    this.entry(labels, () => 0).value += by;
  }

  /** Makes the series exist (at 0) so that it is exposed before its first increment. */
  public init(labels: Labels = {}): void {
    this.entry(labels, () => 0);
  }

  public get(labels: Labels = {}): number {
    return this.entry(labels, () => 0).value;
  }

  public samples(): string[] {
    return [...this.series.values()].map((s) => sample(this.name, s.labels, s.value));
  }
}

/** A value that goes up and down, set directly or computed when scraped. */
export class Gauge extends Metric<number | (() => number)> {
  public readonly type = 'gauge';

  public set(labels: Labels, value: number): void {
    this.entry(labels, () => 0).value = value;
  }

  /** Computes the series' value at every scrape. */
  public setFunction(labels: Labels, fn: () => number): void {
    this.entry(labels, () => 0).value = fn;
  }

  public inc(labels: Labels = {}, by = 1): void {
    const e = this.entry(labels, () => 0);
    e.value = valueOf(e.value) + by;
  }

  public dec(labels: Labels = {}, by = 1): void {
    this.inc(labels, -by);
  }

  public get(labels: Labels = {}): number {
    return valueOf(this.entry(labels, () => 0).value);
  }

  public samples(): string[] {
    return [...this.series.values()].map((s) => sample(this.name, s.labels, valueOf(s.value)));
  }
}

interface HistogramValue {
  readonly counts: number[];
  sum: number;
  count: number;
}

/** Observations counted into cumulative buckets, with their sum and count. */
export class Histogram extends Metric<HistogramValue> {
  public readonly type = 'histogram';
  public readonly buckets: readonly number[];

  public constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    if (labelNames.includes('le')) throw new Error(`${name}: "le" is reserved for histogram buckets`);
    this.buckets = [...buckets].sort((a, b) => a - b);
  }

  public observe(labels: Labels, value: number): void {
    const h = this.entry(labels, () => this.empty()).value;
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) h.counts[i]++;
    h.sum += value;
    h.count++;
  }

  /** Makes the series exist (all zero) so that it is exposed before its first observation. */
  public init(labels: Labels): void {
    this.entry(labels, () => this.empty());
  }

  /** Count and sum of a series. */
  public get(labels: Labels): { count: number; sum: number } {
    const h = this.entry(labels, () => this.empty()).value;
    return { count: h.count, sum: h.sum };
  }

  public samples(): string[] {
    const out: string[] = [];
    for (const { labels, value } of this.series.values()) {
      this.buckets.forEach((le, i) => out.push(sample(`${this.name}_bucket`, { ...labels, le: formatNumber(le) }, value.counts[i])));
      out.push(sample(`${this.name}_bucket`, { ...labels, le: '+Inf' }, value.count));
      out.push(sample(`${this.name}_sum`, labels, value.sum));
      out.push(sample(`${this.name}_count`, labels, value.count));
    }
    return out;
  }

  private empty(): HistogramValue {
    return { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
  }
}

/** The metrics of one process, exposed together. */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric<unknown>>();

  public counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.register(new Counter(name, help, labelNames));
  }

  public gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.register(new Gauge(name, help, labelNames));
  }

  public histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    return this.register(new Histogram(name, help, labelNames, buckets));
  }

  /** Every metric in the text exposition format, in name order. */
  public expose(): string {
    const lines: string[] = [];
    for (const m of [...this.metrics.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      lines.push(`# HELP ${m.name} ${m.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
      lines.push(`# TYPE ${m.name} ${m.type}`);
      lines.push(...m.samples());
    }
    return lines.length ? `${lines.join('\n')}\n` : '';
  }

  private register<M extends Metric<any>>(metric: M): M {
    if (this.metrics.has(metric.name)) throw new Error(`metric ${metric.name} is already registered`);
    this.metrics.set(metric.name, metric);
    return metric;
  }
}

/**
 * Prometheus client_golang's `ExponentialBuckets`: `count` buckets from `start`, each `factor`
 * times the last (computed the same way, so the bounds print as Go prints them).
 */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let b = start;
  for (let i = 0; i < count; i++) {
    out.push(b);
    b *= factor;
  }
  return out;
}

/** Formats a sample value or bucket bound as Go's `strconv.FormatFloat(v, 'g', -1, 64)` does. */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return '0';
  const exponential = v.toExponential();
  const exp = Number(exponential.slice(exponential.indexOf('e') + 1));
  if (exp < -4 || exp >= 21) {
    return exponential.replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(v);
}

function valueOf(v: number | (() => number)): number {
  return typeof v === 'function' ? v() : v;
}

function sample(name: string, labels: Labels, value: number): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`);
  return `${name}${pairs.length ? `{${pairs.join(',')}}` : ''} ${formatNumber(value)}`;
}
