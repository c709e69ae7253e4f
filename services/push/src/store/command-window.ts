/** How long the push store remembers applied command ids, and how it forgets them. */
export interface CommandWindowOptions {
  /** A command id is remembered at least this long after it was applied (24 h). */
  commandWindowMs?: number;
  /** Every this many applied commands, the write also forgets expired ids (1000). */
  pruneEvery?: number;
  /** The time applied commands are stamped and pruned by; tests move it. */
  clock?: () => Date;
}

const defaultWindowMs = 24 * 60 * 60 * 1000;
const defaultPruneEvery = 1000;

/**
 * The schedule both adapters follow. A redelivered command comes back within seconds (a
 * command expires in its queue after the caller's timeout, `COMMAND_TIMEOUT_MS`), so 24 h
 * is a wide margin, and the table holds at most a day of writes. Pruning is a bounded
 * delete (`pruneBatch`: ten times what was added since the last one, so it keeps up) inside
 * every Nth write's transaction: no timer, no job of its own, and a lock the write holds
 * anyway; should it fail, the write fails whole rather than after its commit.
 */
export class CommandWindow {
  readonly windowMs: number;
  readonly pruneEvery: number;
  readonly pruneBatch: number;
  private readonly clock: () => Date;
  private appliedSincePrune = 0;

  constructor(options: CommandWindowOptions = {}) {
    this.windowMs = options.commandWindowMs ?? defaultWindowMs;
    this.pruneEvery = Math.max(1, options.pruneEvery ?? defaultPruneEvery);
    this.pruneBatch = this.pruneEvery * 10;
    this.clock = options.clock ?? (() => new Date());
  }

  now(): Date {
    return this.clock();
  }

  /** Ids applied before this are forgotten. */
  cutoff(): Date {
    return new Date(this.clock().getTime() - this.windowMs);
  }

  /** Counts one applied command; true when this one should also prune. */
  pruneDue(): boolean {
    this.appliedSincePrune += 1;
    if (this.appliedSincePrune < this.pruneEvery) return false;
    this.appliedSincePrune = 0;
    return true;
  }
}
