import type { Response } from 'express';

interface Waiter {
  res: Response;
  start: () => void;
  timer: NodeJS.Timeout;
  leaveWhenClosed: () => void;
}

export interface OrganizationLinesOptions {
  /** Requests of one organization worked on at once (0: no line). */
  perOrganization: number;
  /** While the gateway is shared and pressed (see `placesOf`), this many instead (0: never fewer). */
  perOrganizationWhenShared?: number;
  /** How long a request waits for a place before `giveUp` answers it. */
  maxWaitMs: number;
}

/** How long an organization counts as active after its last request came. */
const activeForMs = 1000;

/**
 * Each organization's requests that the gateway works on at once, at most `perOrganization`;
 * the organization's next ones wait, first come first served and before any work is done on
 * them, until one of its own ends. Another organization's request starts at once: it never
 * queues behind a flood's work in the event loop, in the bus or in a service. A request
 * waits at most `maxWaitMs`, then `giveUp` answers it (503, `Retry-After: 1`); one whose
 * connection closes leaves the line. A request's place is held until its response closes.
 *
 * Each request under way is work another organization's request waits behind, so while the
 * gateway is shared (another organization's requests came within the last second) and
 * pressed (it holds, running and waiting, at least `perOrganization` requests in all), each
 * organization gets `perOrganizationWhenShared` places. An organization alone keeps all of
 * its places whatever its load, and so does everyone while the load is light.
 */
export class OrganizationLines {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, Waiter[]>();
  /** Organizations by the time their last request came, oldest first. */
  private readonly lastSeen = new Map<number, number>();
  private held = 0;

  constructor(private readonly options: OrganizationLinesOptions) {}

  /** Runs `start` now if `orgId` has a free place, else once one frees; `giveUp` if none frees within maxWaitMs. */
  enter(orgId: number, res: Response, start: () => void, giveUp: () => void): void {
    if (this.options.perOrganization <= 0) return start();
    if (res.closed || res.destroyed) return;
    this.seen(orgId);
    const running = this.running.get(orgId) ?? 0;
    if (running < this.placesOf(orgId)) {
      this.running.set(orgId, running + 1);
      this.held += 1;
      return this.begin(orgId, res, start);
    }
    const line = this.waiting.get(orgId) ?? [];
    const waiter: Waiter = {
      res,
      start,
      timer: setTimeout(() => {
        if (this.remove(orgId, waiter)) giveUp();
      }, this.options.maxWaitMs),
      leaveWhenClosed: () => this.remove(orgId, waiter),
    };
    res.once('close', waiter.leaveWhenClosed);
    line.push(waiter);
    this.waiting.set(orgId, line);
    this.held += 1;
  }

  /** The places `orgId` has now: fewer while the gateway is shared and pressed. */
  private placesOf(orgId: number): number {
    const { perOrganization, perOrganizationWhenShared = 0 } = this.options;
    if (perOrganizationWhenShared <= 0 || this.held < perOrganization || !this.othersActive(orgId)) return perOrganization;
    return Math.min(perOrganization, perOrganizationWhenShared);
  }

  private seen(orgId: number): void {
    this.lastSeen.delete(orgId);
    this.lastSeen.set(orgId, performance.now());
  }

  private othersActive(orgId: number): boolean {
    const since = performance.now() - activeForMs;
    for (const [seenOrg, at] of this.lastSeen) {
      if (at >= since) break;
      this.lastSeen.delete(seenOrg);
    }
    return this.lastSeen.size > (this.lastSeen.has(orgId) ? 1 : 0);
  }

  private begin(orgId: number, res: Response, start: () => void): void {
    // Closed, its 'close' already emitted (or about to be, unheard): the place passes on.
    if (res.closed || res.destroyed) return this.leave(orgId);
    res.once('close', () => this.leave(orgId));
    start();
  }

  /** A place of `orgId` freed: its waiting requests take the places it has now, first come first served. */
  private leave(orgId: number): void {
    this.held -= 1;
    const running = (this.running.get(orgId) ?? 1) - 1;
    if (running > 0) this.running.set(orgId, running);
    else this.running.delete(orgId);
    const line = this.waiting.get(orgId);
    while (line && line.length > 0 && (this.running.get(orgId) ?? 0) < this.placesOf(orgId)) {
      const next = line[0]!;
      this.remove(orgId, next);
      this.running.set(orgId, (this.running.get(orgId) ?? 0) + 1);
      this.held += 1;
      this.begin(orgId, next.res, next.start);
    }
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
    this.held -= 1;
    return true;
  }
}
