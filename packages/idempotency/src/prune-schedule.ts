export interface PruneOptions {
  /** Every this many claims, the claim also deletes expired keys (1000). */
  pruneEvery?: number;
}

const defaultPruneEvery = 1000;

/**
 * When a claim also deletes expired keys, as the push store's CommandWindow does for command
 * ids: no timer and no job of its own, a bounded delete (ten times what was claimed since the
 * last one, so it keeps up) inside every Nth claim's own write.
 */
export class PruneSchedule {
  readonly pruneEvery: number;
  readonly pruneBatch: number;
  private claimsSincePrune = 0;

  constructor(options: PruneOptions = {}) {
    this.pruneEvery = Math.max(1, options.pruneEvery ?? defaultPruneEvery);
    this.pruneBatch = this.pruneEvery * 10;
  }

  /** Counts one claim; true when this one should also prune. */
  pruneDue(): boolean {
    this.claimsSincePrune += 1;
    if (this.claimsSincePrune < this.pruneEvery) return false;
    this.claimsSincePrune = 0;
    return true;
  }
}
