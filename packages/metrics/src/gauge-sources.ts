/** Reads one value for a gauge at scrape time; may reject (a broker away), and is then left out. */
export type GaugeSource = () => Promise<number>;

const sourceTimeoutMs = 2000;

/**
 * The places a gauge is read from at scrape time, by label value. Several sources under
 * one label (two buses of one process reading the same queue) are combined by `combine`.
 */
export class GaugeSources {
  private readonly sources = new Map<string, Set<GaugeSource>>();

  constructor(private readonly combine: (values: number[]) => number) {}

  /** Reads `source` under `label` on every scrape until the returned function is called. */
  add(label: string, source: GaugeSource): () => void {
    let set = this.sources.get(label);
    if (!set) this.sources.set(label, (set = new Set()));
    set.add(source);
    return () => {
      set.delete(source);
      if (set.size === 0 && this.sources.get(label) === set) this.sources.delete(label);
    };
  }

  /** Each label's combined value; labels whose every source failed are left out. */
  async read(): Promise<Map<string, number>> {
    const values = new Map<string, number>();
    await Promise.all(
      [...this.sources].map(async ([label, set]) => {
        const read = await Promise.allSettled([...set].map((source) => withTimeout(source())));
        const ok = read.filter((r): r is PromiseFulfilledResult<number> => r.status === 'fulfilled').map((r) => r.value);
        if (ok.length > 0) values.set(label, this.combine(ok));
      }),
    );
    return values;
  }
}

function withTimeout(value: Promise<number>): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('gauge source too slow')), sourceTimeoutMs);
  });
  return Promise.race([value, late]).finally(() => clearTimeout(timer));
}
