import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { IntervalHistogram } from 'node:perf_hooks';
import { pinnedHistogram, recordShed, watchLoad, type ShedReason } from '@formcast/metrics';
import { AppError, type Settings } from '@formcast/platform';
import { pauseConnectionAfterAnswer } from './refused-connection-pause';
import { KnownAuthorizations, neverShed, refusableAtTheDoor, refuseAtTheDoor } from './door-refusal';
import { OrganizationLines } from './organization-lines';

export interface LoadSheddingSettings {
  /** Requests held at once (0: no bound). */
  maxInFlight: number;
  /** Requests of one organization (an API token's) held at once (0: no bound). */
  maxInFlightPerOrganization?: number;
  /** Of those, how many are worked on at once; the others wait in their organization's line (0: no line). */
  runningPerOrganization?: number;
  /** As many while other organizations are active and the gateway holds that many in all (organization-lines.ts; 0: never fewer). */
  runningPerOrganizationWhenShared?: number;
  /** The event-loop delay (p99 of one sampling interval) past which new requests are shed (0: never). */
  maxEventLoopDelayMs: number;
  sampleIntervalMs: number;
  /** How long a connection whose request was refused (429, 503) goes unread after its answer (0: not at all). */
  refusedConnectionPauseMs?: number;
}

export function loadSheddingSettings(settings: Settings): LoadSheddingSettings {
  return {
    maxInFlight: settings.SHED_MAX_IN_FLIGHT,
    maxInFlightPerOrganization: settings.SHED_MAX_IN_FLIGHT_PER_ORGANIZATION,
    runningPerOrganization: settings.SHED_RUNNING_PER_ORGANIZATION,
    runningPerOrganizationWhenShared: settings.SHED_RUNNING_PER_ORGANIZATION_WHEN_SHARED,
    maxEventLoopDelayMs: settings.SHED_EVENT_LOOP_DELAY_MS,
    sampleIntervalMs: settings.SHED_SAMPLE_INTERVAL_MS,
    refusedConnectionPauseMs: settings.SHED_REFUSED_CONNECTION_PAUSE_MS,
  };
}

/**
 * While the event loop runs late, an organization with this many requests under way (a
 * 32nd of its bound, 4 by default) has its new ones shed when it is among the busiest: at
 * least half as many of its requests came (admitted or shed) over the last sampling interval
 * and this one as from the organization with most. One with fewer under way, or a trickle
 * beside a flood, is served, so a flood of one organization does not get another's requests
 * shed with it, even once that other's own requests slow down and a few pile up.
 */
const lateShare = (maxPerOrganization: number) => Math.max(1, Math.ceil(maxPerOrganization / 32));

/** How long a request waits in its organization's line before it is answered 503 (the `Retry-After: 1` it is then told). */
const lineMaxWaitMs = 1000;

/** Requests counted against their organization's bound already. */
const countedRequests = new WeakSet<Request>();

const shedMessages: Record<ShedReason, string> = {
  in_flight: 'The server is overloaded (too many requests under way): retry after 1 s',
  organization_in_flight: 'The server is overloaded (too many requests of this organization under way): retry after 1 s',
  event_loop_delay: 'The server is overloaded (running late): retry after 1 s',
};

function shed(reason: ShedReason, res: Response): AppError {
  recordShed(reason);
  res.setHeader('Retry-After', '1');
  return new AppError('unavailable', shedMessages[reason]);
}

/**
 * Load shedding: past a bound of requests under way, or while the event loop runs late
 * (perf_hooks.monitorEventLoopDelay, p99 over the last sampling interval), a new request is
 * answered 503 with `Retry-After: 1` at once, before any work, instead of waiting behind the
 * others for seconds. The probes are never shed, so an overloaded gateway stays ready.
 *
 * The delay is watched only while requests come: an interval in which none started and the
 * loop ran on time puts the monitor (a timer every 10 ms) and the sampling to sleep, and the
 * next request wakes them (issue 24: an idle process spent 0.5% of a core on that timer).
 */
export class LoadShedder {
  private inFlight = 0;
  private delayMs = 0;
  private readonly histogram?: IntervalHistogram;
  private timer?: NodeJS.Timeout;
  private lastSampleAt = performance.now();
  /** Requests taken since the last sample. */
  private taken = 0;
  private stopped = false;
  private readonly lines: OrganizationLines;

  constructor(private readonly settings: LoadSheddingSettings) {
    this.lines = new OrganizationLines({
      perOrganization: settings.runningPerOrganization ?? 0,
      perOrganizationWhenShared: settings.runningPerOrganizationWhenShared ?? 0,
      maxWaitMs: lineMaxWaitMs,
    });
    if (settings.maxEventLoopDelayMs > 0) {
      this.histogram = pinnedHistogram(10);
      this.watch();
    }
    watchLoad(() => ({ inFlight: this.inFlight, eventLoopDelaySeconds: this.delayMs / 1000 }));
  }

  /** Whether the event-loop delay is being watched now (asleep while no request comes). */
  get watching(): boolean {
    return this.timer !== undefined;
  }

  private watch(): void {
    if (this.timer || !this.histogram || this.stopped) return;
    this.histogram.reset();
    this.histogram.enable();
    this.pressing = new Map();
    this.pressingBefore = new Map();
    this.lastSampleAt = performance.now();
    this.timer = setInterval(() => this.sample(), this.settings.sampleIntervalMs);
    this.timer.unref();
  }

  private sleep(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.histogram?.disable();
  }

  /**
   * The event-loop delay of the interval that just ended, then a new interval: the
   * histogram's p99, or how late this sampling timer itself ran if that is more (a block
   * that just ended may not be in the histogram yet when this timer runs first).
   */
  private sample(): void {
    const histogram = this.histogram!;
    const now = performance.now();
    const lateMs = Math.max(0, now - this.lastSampleAt - this.settings.sampleIntervalMs);
    this.lastSampleAt = now;
    this.delayMs = Math.max(lateMs, histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0);
    histogram.reset();
    const quiet = this.taken === 0 && this.inFlight === 0 && this.delayMs <= this.settings.maxEventLoopDelayMs;
    this.taken = 0;
    this.pressingBefore = this.pressing;
    this.pressing = new Map();
    if (quiet) this.sleep();
  }

  private isRunningLate(): boolean {
    return this.settings.maxEventLoopDelayMs > 0 && this.delayMs > this.settings.maxEventLoopDelayMs;
  }

  private judgesLatenessPerOrganization(): boolean {
    return (this.settings.maxInFlightPerOrganization ?? 0) > 0;
  }

  /** Why a new request would be shed now, or null. */
  reason(): ShedReason | null {
    if (this.settings.maxInFlight > 0 && this.inFlight >= this.settings.maxInFlight) return 'in_flight';
    if (this.settings.maxEventLoopDelayMs > 0 && this.delayMs > this.settings.maxEventLoopDelayMs) return 'event_loop_delay';
    return null;
  }

  /**
   * The first thing a request meets (before the request context and everything else): a
   * request refusable at the door (door-refusal.ts) is answered 503 there when the gateway
   * is over its bound, or when its `Authorization` is known to be of an organization that
   * `afterApiToken` would shed now. One of a known organization that is let through is
   * counted against its organization here, at once: the requests read in one turn of the
   * event loop each see the ones before them. Everything else goes on to `middleware`.
   */
  readonly door = (req: Request, res: Response, next: NextFunction): void => {
    const verdict = this.verdictAtTheDoor(req, res);
    if (verdict === null) return next();
    if (typeof verdict === 'number') return this.lines.enter(verdict, res, next, () => this.refuseAtTheDoor('organization_in_flight', res));
    this.refuseAtTheDoor(verdict, res);
  };

  private refuseAtTheDoor(reason: ShedReason, res: Response): void {
    recordShed(reason);
    pauseConnectionAfterAnswer(res, this.refusedConnectionPauseMs);
    refuseAtTheDoor(res, shedMessages[reason]);
  }

  /** How long a refused request's connection goes unread after its answer (refused-connection-pause.ts). */
  get refusedConnectionPauseMs(): number {
    return this.settings.refusedConnectionPauseMs ?? 0;
  }

  /** Why `req` is refused at the door, or the organization it was admitted for (it takes its place in the line), or null: on it goes. */
  private verdictAtTheDoor(req: Request, res: Response): ShedReason | number | null {
    const reason = this.reason();
    if (reason === null && this.byOrganization.size === 0) return null;
    if (!refusableAtTheDoor(req)) return null;
    if (reason !== null && !this.judgedPerOrganization(reason, req)) return reason;
    const orgId = this.knownAuthorizations.organizationOf(req.headers.authorization);
    if (orgId === undefined) return null;
    this.pressedBy(orgId);
    const organizationReason = this.organizationReason(orgId);
    if (organizationReason !== null) return organizationReason;
    this.admit(orgId, req, res);
    return orgId;
  }

  /** Running late, a request with an API token is judged once its organization is known (afterApiToken). */
  private judgedPerOrganization(reason: ShedReason, req: Request): boolean {
    return reason === 'event_loop_delay' && this.judgesLatenessPerOrganization() && /^basic /i.test(req.headers.authorization ?? '');
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (neverShed.has(req.path)) return next();
    const reason = this.reason();
    // The organizations with a few requests under way are still served.
    if (reason !== null && this.judgedPerOrganization(reason, req)) {
      this.inFlight += 1;
      res.once('close', this.release);
      return next();
    }
    if (reason !== null) throw shed(reason, res);
    // Reached in the turn the request was read, before anything can have closed its response.
    this.inFlight += 1;
    this.taken += 1;
    this.watch();
    res.once('close', this.release);
    next();
  };

  private readonly release = (): void => {
    this.inFlight -= 1;
  };

  private readonly byOrganization = new Map<number, number>();
  private readonly knownAuthorizations = new KnownAuthorizations();

  /** Why a new request of `orgId` would be shed now, or null (see afterApiToken). */
  private organizationReason(orgId: number): ShedReason | null {
    const max = this.settings.maxInFlightPerOrganization ?? 0;
    if (max <= 0) return null;
    const running = this.byOrganization.get(orgId) ?? 0;
    if (running >= max) return 'organization_in_flight';
    if (running >= lateShare(max) && this.isRunningLate() && this.isAmongTheBusiest(orgId)) return 'event_loop_delay';
    return null;
  }

  /** Requests that came, admitted or shed, per organization known: this sampling interval's, and the last one's. */
  private pressing = new Map<number, number>();
  private pressingBefore = new Map<number, number>();

  private pressedBy(orgId: number): void {
    if (this.histogram) this.pressing.set(orgId, (this.pressing.get(orgId) ?? 0) + 1);
  }

  private recentRequests(orgId: number): number {
    return (this.pressing.get(orgId) ?? 0) + (this.pressingBefore.get(orgId) ?? 0);
  }

  /** At least half as many requests came over this interval and the last as from the organization with most. */
  private isAmongTheBusiest(orgId: number): boolean {
    let busiest = 0;
    for (const other of new Set([...this.pressing.keys(), ...this.pressingBefore.keys()])) busiest = Math.max(busiest, this.recentRequests(other));
    return this.recentRequests(orgId) * 2 >= busiest;
  }

  /**
   * One more request of `orgId` under way, until its response closes. A response closed
   * already is not counted: its 'close' has been emitted and would never be heard. That is a
   * request whose connection ended while its authentication waited (a GET sent with a body
   * but no length: the body is read as a next request, fails to parse, and Node answers 400
   * and drops the connection); counted, it stayed under way for good, and every such request
   * took its organization one slot nearer to being shed for ever.
   */
  private admit(orgId: number, req: Request, res: Response): void {
    countedRequests.add(req);
    if (res.closed || res.destroyed) return;
    this.byOrganization.set(orgId, (this.byOrganization.get(orgId) ?? 0) + 1);
    res.once('close', () => {
      const left = (this.byOrganization.get(orgId) ?? 1) - 1;
      if (left > 0) this.byOrganization.set(orgId, left);
      else this.byOrganization.delete(orgId);
    });
  }

  /**
   * `authenticate` (an API token's, with its rate limit), then the organization's own bound:
   * past SHED_MAX_IN_FLIGHT_PER_ORGANIZATION requests of one organization under way, its new
   * ones are 503 at once, so a flood of one organization never takes every slot of the
   * gateway's bound and the others' requests are still served. Counted once a request,
   * however many routers authenticate it (or once at the door). While the event loop runs late, a request with an
   * API token is judged here, not before authentication: shed when its organization has
   * `lateShare` requests under way and is among the busiest, served otherwise. The header's organization is
   * remembered, so that its next requests can be judged at the door.
   */
  afterApiToken(authenticate: RequestHandler): RequestHandler {
    const max = this.settings.maxInFlightPerOrganization ?? 0;
    if (max <= 0) return authenticate;
    return (req, res, next) => {
      const counted: NextFunction = (error?: unknown) => {
        if (error !== undefined) return next(error);
        const orgId = req.context.orgId;
        if (typeof orgId !== 'number' || countedRequests.has(req)) return next();
        this.knownAuthorizations.learn(req.headers.authorization, orgId);
        this.pressedBy(orgId);
        const reason = this.organizationReason(orgId);
        if (reason !== null) return next(shed(reason, res));
        this.admit(orgId, req, res);
        this.lines.enter(orgId, res, next, () => next(shed('organization_in_flight', res)));
      };
      return authenticate(req, res, counted);
    };
  }

  stop(): void {
    this.stopped = true;
    this.sleep();
  }
}
