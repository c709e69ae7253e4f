import type { DeliveryStore } from '../store';

/** A claim of one attempt, able to extend its lease (see DeliveryQueue.holdLease). */
export interface LeaseHold {
  /**
   * Runs `work` with the lease extended every third of it meanwhile, so that a long render
   * (its queue for a render worker, the images asked, the template) never lets the lease run
   * out and another worker take the delivery.
   */
  whileWorking<T>(work: () => Promise<T>): Promise<T>;
  /** Extends the lease once more and says whether the claim is still this attempt's: asked just before sending. */
  stillMine(): Promise<boolean>;
}

export function leaseHold(store: DeliveryStore, claim: { deliveryId: number; claimToken: string }, leaseMs: number, now: () => number): LeaseHold {
  let lost = false;
  const extend = async (): Promise<boolean> => {
    const held = await store.queue.holdLease(claim, now() + leaseMs);
    if (!held) lost = true;
    return held;
  };
  return {
    async whileWorking(work) {
      const timer = setInterval(() => void extend().catch(() => undefined), Math.max(50, Math.floor(leaseMs / 3)));
      timer.unref();
      try {
        return await work();
      } finally {
        clearInterval(timer);
      }
    },
    async stillMine() {
      if (lost) return false;
      try {
        return await extend();
      } catch {
        return false;
      }
    },
  };
}

/** For attempts made outside a worker's claim (tests): always held. */
export const unleased: LeaseHold = { whileWorking: (work) => work(), stillMine: async () => true };
