import type { Response } from 'express';

interface Waiter {
  res: Response;
  start: () => void;
  timer: NodeJS.Timeout;
  leaveWhenClosed: () => void;
}

/**
 * Each organization's requests that the gateway works on at once, at most `perOrganization`;
 * the organization's next ones wait, first come first served and before any work is done on
 * them, until one of its own ends. Another organization's request starts at once: it never
 * queues behind a flood's work in the event loop, in the bus or in a service. A request
 * waits at most `maxWaitMs`, then `giveUp` answers it (503, `Retry-After: 1`); one whose
 * connection closes leaves the line. A request's place is held until its response closes.
 */
export class OrganizationLines {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, Waiter[]>();

  constructor(
    readonly perOrganization: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Runs `start` now if `orgId` has a free place, else once one frees; `giveUp` if none frees within maxWaitMs. */
  enter(orgId: number, res: Response, start: () => void, giveUp: () => void): void {
    if (this.perOrganization <= 0) return start();
    if (res.closed || res.destroyed) return;
    const running = this.running.get(orgId) ?? 0;
    if (running < this.perOrganization) {
      this.running.set(orgId, running + 1);
      return this.begin(orgId, res, start);
    }
    const line = this.waiting.get(orgId) ?? [];
    const waiter: Waiter = {
      res,
      start,
      timer: setTimeout(() => {
        if (this.remove(orgId, waiter)) giveUp();
      }, this.maxWaitMs),
      leaveWhenClosed: () => this.remove(orgId, waiter),
    };
    res.once('close', waiter.leaveWhenClosed);
    line.push(waiter);
    this.waiting.set(orgId, line);
  }

  /** Requests of `orgId` waiting for a place now. */
  waitingFor(orgId: number): number {
    return this.waiting.get(orgId)?.length ?? 0;
  }

  private begin(orgId: number, res: Response, start: () => void): void {
    // Closed, its 'close' already emitted (or about to be, unheard): the place passes on.
    if (res.closed || res.destroyed) return this.leave(orgId);
    res.once('close', () => this.leave(orgId));
    start();
  }

  /** A place of `orgId` freed: the next waiting request of the same organization takes it. */
  private leave(orgId: number): void {
    const next = this.waiting.get(orgId)?.[0];
    if (next) {
      this.remove(orgId, next);
      // The place passes on: the organization's count of running requests stays.
      return this.begin(orgId, next.res, next.start);
    }
    const running = (this.running.get(orgId) ?? 1) - 1;
    if (running > 0) this.running.set(orgId, running);
    else this.running.delete(orgId);
  }

  /** Takes `waiter` out of its line; false when it had left already. */
  private remove(orgId: number, waiter: Waiter): boolean {
    const line = this.waiting.get(orgId);
    const index = line?.indexOf(waiter) ?? -1;
    if (index === -1) return false;
    line!.splice(index, 1);
    if (line!.length === 0) this.waiting.delete(orgId);
    clearTimeout(waiter.timer);
    waiter.res.off('close', waiter.leaveWhenClosed);
    return true;
  }
}
