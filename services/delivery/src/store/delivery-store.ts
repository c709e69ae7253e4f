import type { DeliveryMetric, MetricCursor } from '../domain/performance-metrics';
import type { AttemptOutcome } from '../domain/attempt-outcome';
import type { DueCandidate, InFlight } from '../domain/fair-selection';
import type { ServiceStore } from '@formcast/storage';
import type {
  Delivery,
  DeliveryAttempt,
  DeliveryWithAttempts,
  DeliveryDocument,
  Destination,
  DestinationChange,
  NewDelivery,
  NewDestination,
  SubmissionTarget,
} from '../domain/records';

/** A form of an organization, as destinations name it. */
export interface FormRef {
  orgId: number;
  formId: number;
}

/** A delivery taken by one worker for one attempt, with its destination as it is now. */
export interface ClaimedDelivery {
  delivery: Delivery;
  destination: Destination;
  /** Names this claim: only its holder's outcome changes the delivery (see `recordAttempt`). */
  claimToken: string;
}

export type NewAttempt = Omit<DeliveryAttempt, 'deliveryId'>;

/**
 * Asked with an attempt's record: when the oldest due delivery (not leased, of an active
 * destination) is of the same destination as the attempt, it is claimed (leased for
 * `leaseMs`) and handed to the slot the attempt frees. One freed slot is what fair selection would give
 * that delivery (its destination and organization are under their limits again, and it is
 * the oldest); any other is left to the worker's pass. Only while the claim recorded is still
 * the attempt's: a lease lost to another worker frees no slot here. Issue 24: the slot then
 * waits for no pass (an event-loop turn, and a pass's reads, per delivery).
 */
export interface HandOff {
  /**
   * Epoch ms, read as the record is written (a group commit comes a turn after the call):
   * due at or before it; so are deliveries made meanwhile.
   */
  now: () => number;
  /** The lease of the delivery handed over, from `now()`. */
  leaseMs: number;
}

/** A page of a delivery log: how many to skip, how many to give. */
export interface PageRequest {
  offset: number;
  limit: number;
}

export interface DeliveryLogPage {
  /** Deliveries of the destination in all. */
  total: number;
  deliveries: DeliveryWithAttempts[];
}

/** The most attempts kept per delivery (the newest); a delivery makes 8 per schedule. */
export const attemptsKeptPerDelivery = 50;

/** Destinations, with their signing secrets (sealed as stored) and health. */
export interface DestinationStore {
  /** Ascending by id. */
  listDestinations(orgId: number, formId: number): Promise<Destination[]>;
  getDestination(orgId: number, formId: number, destinationId: number): Promise<Destination | null>;
  /** A create already applied under `commandId` (a command delivered twice) returns that destination. */
  createDestination(input: NewDestination, commandId: string): Promise<Destination>;
  updateDestination(orgId: number, formId: number, destinationId: number, change: DestinationChange): Promise<Destination>;
  /**
   * A new signing secret; the one it replaces signs beside it for `overlapMs`. A rotation
   * already applied under `commandId` returns the destination without rotating again.
   */
  rotateSecret(orgId: number, formId: number, destinationId: number, overlapMs: number, commandId: string): Promise<Destination>;
  /** With its deliveries and their attempts. */
  deleteDestination(orgId: number, formId: number, destinationId: number): Promise<void>;
  /**
   * Every destination of a form (the form was deleted), with their deliveries and attempts,
   * the deliveries removed in batches first. Returns how many destinations went; 0 when the
   * form has none (the event came again).
   */
  deleteFormDestinations(orgId: number, formId: number): Promise<number>;
  /**
   * The forms that have destinations, once each, ascending by organization then form, at
   * most `limit`, after `after` when given: how the deleted-forms sweep walks them. A page
   * may hold fewer than `limit` while more follow; only an empty page is the end.
   */
  formsWithDestinations(after: FormRef | undefined, limit: number): Promise<FormRef[]>;
  /**
   * The active destinations of a form, ascending by id: where its submissions go. Read with
   * only what a delivery is made of (issue 24: the whole record, secrets opened, on every
   * submission event).
   */
  activeDestinations(orgId: number, formId: number): Promise<SubmissionTarget[]>;
  /**
   * Seals with the current key every signing secret stored in clear (before secrets were
   * sealed) or under the previous key (a key rotation); returns how many destinations it
   * changed. Throws SecretsKeyError, changing nothing more, when a secret opens with neither
   * key: run at start, so a wrong key stops the process before anything is signed.
   */
  sealSecrets(): Promise<number>;
}

/** Deliveries (one per destination and submission), their attempts, the schedule and the leases. */
export interface DeliveryQueue {
  /**
   * Pending deliveries, due at `now`. One of a (destination, submission) pair that has a
   * delivery already is not made again (the event came twice): returns how many were new.
   */
  createDeliveries(deliveries: NewDelivery[], now: number): Promise<number>;
  /**
   * Deliveries due at `now`, not leased, of active destinations; oldest due first, at
   * most `perDestination` of each destination and `limit` in all.
   */
  dueDeliveries(now: number, perDestination: number, limit: number): Promise<DueCandidate[]>;
  /** Deliveries leased at `now` (attempts under way in any replica), counted. */
  inFlight(now: number): Promise<InFlight>;
  /** Leases those of `ids` still due and free until `leaseUntil`; returns those it leased. */
  claim(ids: number[], now: number, leaseUntil: number): Promise<ClaimedDelivery[]>;
  /**
   * Records an attempt, and its outcome: the delivery's status, next due time and schedule
   * step, one further unless the outcome is deferred (only if the claim is still the
   * delivery's: a lease that ran out and was taken by another worker leaves the delivery to
   * that one), the destination's health (always). Keeps the newest
   * `attemptsKeptPerDelivery` attempts.
   *
   * With `handOff`, in the same transaction, the slot the attempt frees passes on (see
   * HandOff): returns the delivery claimed for it, or null (also without `handOff`).
   */
  recordAttempt(claim: { deliveryId: number; claimToken: string }, attempt: NewAttempt, outcome: AttemptOutcome, handOff?: HandOff): Promise<ClaimedDelivery | null>;
  /**
   * Extends a claim's lease to `leaseUntil` if the claim is still the delivery's (its token,
   * still pending); says whether it is. An attempt that takes long (a render) holds its
   * delivery this way, and asks again just before it sends: false means another worker may
   * have it, and this one must not send.
   */
  holdLease(claim: { deliveryId: number; claimToken: string }, leaseUntil: number): Promise<boolean>;
  /** A destination's deliveries, newest first, with their attempts oldest first. */
  listDeliveries(orgId: number, formId: number, destinationId: number, page: PageRequest): Promise<DeliveryLogPage>;
  /** Pending again, due at `now`, at the start of its schedule (same webhook id, same body). */
  redeliver(orgId: number, formId: number, destinationId: number, deliveryId: number, now: number): Promise<DeliveryWithAttempts>;
  /**
   * Removes at most `limit` deliveries that ended (succeeded, or failed for good) before
   * `endedBefore` (epoch ms of their last change), with their attempts, in one short
   * transaction; returns how many. Pending ones are never removed. Safe to run from any
   * number of replicas at once.
   */
  sweepEnded(endedBefore: number, limit: number): Promise<number>;
  /** The delivery of the organization's form and destination (404 otherwise), for its document. */
  getDelivery(orgId: number, formId: number, destinationId: number, deliveryId: number): Promise<Delivery>;
}

/** The documents deliveries send, kept with their delivery. */
export interface DeliveryDocumentStore {
  /**
   * A delivery's document (a document format's PDF, .docx or text), kept at its first
   * attempt so that every attempt sends the same one. The first kept wins: a second save
   * (two workers, a lease run out) leaves it and returns the one kept. Goes with its delivery.
   */
  saveDocument(deliveryId: number, document: DeliveryDocument): Promise<DeliveryDocument>;
  getDocument(deliveryId: number): Promise<DeliveryDocument | null>;
}

/** An organization's bounce list. */
export interface BounceList {
  /**
   * The organization's bounce list (email_transport's `skip_bounce_list_check`): addresses an
   * SMTP server refused for good (a 5xx to RCPT TO). Recording one again dates it anew.
   */
  recordBounces(orgId: number, addresses: string[], reason: string, at: string): Promise<void>;
  /** Those of `addresses` on the organization's bounce list since `since` (ISO time), any case. */
  bouncedAmong(orgId: number, addresses: string[], since: string): Promise<string[]>;
}

/** The performance metric report's reads. */
export interface PerformanceMetricReads {
  /**
   * The organization's deliveries created in [from, to) (ISO times), ordered by creation time
   * then id, at most `limit`, from after `after`: the performance metric report's pages. Each
   * with its destination's name, kind and state, its latest attempt and its sizes.
   */
  performanceMetrics(orgId: number, range: { from: string; to: string }, after: MetricCursor | null, limit: number): Promise<DeliveryMetric[]>;
}

/**
 * The delivery service's store port: one part per aggregate, on one database (one SQLite
 * file or one MongoDB database): destinations (with their signing secrets), the delivery
 * queue (deliveries, one per destination and submission, their attempts, and the schedule,
 * which lives here so it survives any restart), their documents, the bounce list and the
 * performance report's reads. Destinations are scoped by organization and form: another's
 * id behaves as unknown. Times named `now` are epoch ms.
 *
 * Deliveries are taken with a lease (`claim`): a delivery claimed by one worker is not
 * due for any other until its lease ends, so two replicas never attempt it at once, and
 * one whose worker died is taken again when its lease ends.
 *
 * A destination that is not active keeps its pending deliveries without a due time
 * (nothing is attempted); made active again, they are due at once.
 *
 * Signing secrets are stored sealed (AES-256-GCM, src/secrets): adapters seal them on
 * writing and open them on reading, so callers only ever see them in clear.
 *
 * Errors: AppError('not_found') for an unknown destination or delivery; SecretsKeyError when
 * a stored secret does not open with the store's keys; nothing changes when a method throws.
 */
export interface DeliveryStore extends ServiceStore {
  readonly destinations: DestinationStore;
  readonly queue: DeliveryQueue;
  readonly documents: DeliveryDocumentStore;
  readonly bounces: BounceList;
  readonly metrics: PerformanceMetricReads;
}
