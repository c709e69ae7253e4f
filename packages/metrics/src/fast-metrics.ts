import type { Metric } from 'prom-client';
import { metricsRegistry } from './registry';

/**
 * Counters and histograms whose children are plain numbers, for the hot paths (every request,
 * command and event). prom-client's own children build, validate and hash a label object on
 * every `inc`/`observe`; these do nothing but add, and hand prom-client's registry their
 * values when it is scraped (the `get()` its metrics have), so the exposition is the same.
 */

type Labels = Record<string, string>;

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** Label values as one key; a NUL never appears in the names, routes or codes used as label values. */
const keyOf = (values: readonly string[]) => values.join('\u0000');

function labelsOf(names: readonly string[], values: readonly string[]): Labels {
  if (values.length !== names.length) throw new Error(`Expected ${names.length} label values (${names.join(', ')}), got ${values.length}`);
  return Object.fromEntries(names.map((name, i) => [name, values[i]!]));
}

abstract class Family<Child> {
  readonly aggregator = 'sum';
  protected readonly children = new Map<string, Child>();

  protected constructor(
    readonly name: string,
    readonly help: string,
    protected readonly labelNames: readonly string[],
  ) {
    metricsRegistry.registerMetric(this as unknown as Metric);
  }

  /** The child for these label values (in `labelNames` order), made on first use and kept: hold on to it. */
  labels(...values: string[]): Child {
    const key = keyOf(values);
    let child = this.children.get(key);
    if (!child) this.children.set(key, (child = this.newChild(labelsOf(this.labelNames, values))));
    return child;
  }

  protected abstract newChild(labels: Labels): Child;
}

export class CounterChild {
  value = 0;

  constructor(readonly labels: Labels) {}

  inc(by = 1): void {
    this.value += by;
  }
}

export class FastCounter extends Family<CounterChild> {
  readonly type = 'counter';

  constructor(name: string, labelNames: readonly string[], help: string) {
    super(name, help, labelNames);
  }

  protected newChild(labels: Labels): CounterChild {
    return new CounterChild(labels);
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values = [...this.children.values()].map((child) => ({ labels: child.labels, value: child.value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const child of this.children.values()) child.value = 0;
  }
}

export class HistogramChild {
  /** Observations per bucket, not cumulative; the last is above every bound (+Inf). */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket += 1;
    this.counts[bucket]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export class FastHistogram extends Family<HistogramChild> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(options: { name: string; help: string; labelNames: readonly string[]; buckets: readonly number[] }) {
    super(options.name, options.help, options.labelNames);
    this.bounds = [...options.buckets].sort((a, b) => a - b);
  }

  protected newChild(labels: Labels): HistogramChild {
    return new HistogramChild(labels, this.bounds);
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const child of this.children.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += child.counts[i]!;
        values.push({ labels: { ...child.labels, le: bound }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...child.labels, le: '+Inf' }, value: child.count, metricName: `${this.name}_bucket` });
      values.push({ labels: child.labels, value: child.sum, metricName: `${this.name}_sum` });
      values.push({ labels: child.labels, value: child.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    for (const child of this.children.values()) {
      child.counts.fill(0);
      child.sum = 0;
      child.count = 0;
    }
  }
}
