import type { Envelope } from '@formcast/contracts';

/** Part of a listing: ids above `afterId` (default 0), `offset` of them passed over (default 0), at most `limit` (default: all). */
/** A device of an organization, as oneshots name it. */
export interface DeviceRef {
  orgId: number;
  deviceId: number;
}

export interface ListWindow {
  afterId?: number;
  offset?: number;
  limit?: number;
}
import type { IdempotencyStore, KeyFound, KeyRequest } from '@formcast/idempotency';
import type { ServiceStore } from '@formcast/storage';
import type { OneshotEventFactory } from '../domain/oneshot-events';
import type { DispatchPage, DispatchSummary, NewOneshot, Oneshot, OneshotSummary, Submission } from '../domain/records';
import type { SubmissionEventFactory } from '../domain/submission-events';
import type { SubmissionPage, SubmissionQuery } from '../domain/submission-query';
import type { SubmissionLoaded, SubmissionOutcome } from '../domain/submission-rules';
import type { SubmissionImageStore } from './submission-image-store';

export interface OutboxEntry {
  seq: number;
  event: Envelope;
}

/** What the outbox holds: how many events, and when the oldest of them occurred (null when empty). */
export interface OutboxBacklog {
  count: number;
  oldestOccurredAt: string | null;
}

/**
 * A transition as the store runs it: the pure decision of domain/oneshot-lifecycle.ts,
 * handed what the store loaded; it returns what to save, or throws and nothing is saved.
 */
export type Transition<Loaded, Saved> = (loaded: Loaded) => Saved;

/** What a submission write loads (see SubmissionLoaded): the oneshot named, and the device's submission with that client id. */
export interface SubmissionKeys {
  orgId: number;
  deviceId: number;
  oneshotId: number | null;
  clientSubmissionId: string | null;
}

/** The events of a submission write: one for the oneshot it completes, one for the submission. */
export interface SubmissionEvents {
  completed: OneshotEventFactory;
  received: SubmissionEventFactory;
  /**
   * The image identifiers its answers name (see domain/image-answers.ts). When one of them is
   * not yet stored for the device, the `received` event is held with the submission, not
   * written to the outbox: the image save that stores the last of them writes it, in its own
   * write (see SubmissionImageStore.save). Either way the event lists the images.
   */
  namedImages?: string[];
}

/** A stored submission found by the oneshot it completed, or by its device and client id. */
export type SubmissionKey = { oneshotId: number } | { deviceId: number; clientSubmissionId: string };

/** An Idempotency-Key a create records in its own transaction (see `createKeyed`). */
export interface CreateKey extends KeyRequest {
  /** What the key answers from then on: the command's answer, made from the oneshot as created. */
  answer(created: Oneshot): unknown;
}

/** What `createKeyed` did: created the oneshot (or found it created by the same command), or found the key taken and wrote nothing. */
export type KeyedCreate = { created: Oneshot } | { found: KeyFound };

/**
 * The push service's store port: it loads and saves, the rules are the transitions handed
 * to it. Each write saves the oneshot(s) and their events (one each, built by the given
 * factory from the oneshot as saved) in one local transaction: the outbox. Everything is
 * scoped by organization: a oneshot of another organization loads as null. A transition may
 * change a oneshot's name, description, payload, state and updatedAt; the other fields are
 * written once, by create. Nothing changes when a method throws, whoever threw.
 *
 * `commandId` is the id of the command envelope asking for the write. Commands come at
 * least once (a replica that dies after the write, before its ack, leaves the command to
 * another), so each write is applied at most once per command id: the id is recorded in
 * the same transaction as the change and its events, and a write whose id is already
 * recorded runs no transition, changes nothing, writes no event and returns what the first
 * one returned, even when the transition would now fail (the oneshot has ended since). Ids
 * are remembered for a window (24 h by default; see `CommandWindow`), far longer than a
 * command can be redelivered.
 *
 * What is recorded is the ids of the oneshots the command changed, not a copy of its
 * result: a record stays a few bytes whatever the payloads (images) or the number of
 * oneshots revoked at once, and a repeat reads them again. Ended oneshots and submissions
 * never change, so revocations and submissions repeat exactly; create and update return the
 * oneshot as it is now, which differs only if another command changed it in the seconds
 * between the two deliveries. A submission's command records the submission's id.
 */
export interface PushStore extends ServiceStore {
  /** Saves a new oneshot under the next id. */
  create(oneshot: NewOneshot, event: OneshotEventFactory, commandId: string): Promise<Oneshot>;
  /**
   * `create` answering once per Idempotency-Key, all in one transaction: the key is decided on
   * as `decideClaim` does; when it is free, the oneshot is created and the key recorded
   * completed with `key.answer(oneshot)`; when it is taken, nothing is written and what was
   * found is returned. Of two creates with one key at once, the second finds the first's key.
   * The key stands for the command id: every delivery of a command carries its key, so the
   * key's record is what a repeat finds, and no applied command is recorded. Only a claim
   * taken over (`stale`, left by `keys.claim`) runs as `create` would under the claim's
   * command id, which may have been applied already: then that oneshot is the answer.
   */
  createKeyed(oneshot: NewOneshot, event: OneshotEventFactory, key: CreateKey): Promise<KeyedCreate>;
  /** Loads the oneshot and saves what the transition makes of it. */
  change(
    orgId: number,
    oneshotId: number,
    transition: Transition<Oneshot | null, Oneshot>,
    event: OneshotEventFactory,
    commandId: string,
  ): Promise<Oneshot>;
  /**
   * Loads the device's outstanding oneshots, ascending by id (the first `limit` of them, when
   * given), and saves each one the transition returns, in one transaction.
   */
  changeOutstanding(
    orgId: number,
    deviceId: number,
    transition: Transition<Oneshot[], Oneshot[]>,
    event: OneshotEventFactory,
    commandId: string,
    limit?: number,
  ): Promise<Oneshot[]>;
  /**
   * The release of scheduled dispatches: loads the oneshots named (any organization) and
   * saves each one the transition returns, with its event, in one transaction. Not a
   * command, so no command id: the transition decides on what the transaction loaded (only
   * those still due), so two replicas releasing the same ones at once release each once.
   */
  release(oneshotIds: number[], transition: Transition<Oneshot[], Oneshot[]>, event: OneshotEventFactory): Promise<Oneshot[]>;
  /**
   * Loads what the keys name and saves what the transition makes of it: a new submission
   * under the next submission id with its `received` event, and the oneshot it completes
   * with its `completed` event; or nothing, when the transition answers with an earlier
   * submission. Returns the submission saved, or that earlier one.
   */
  submit(
    keys: SubmissionKeys,
    transition: Transition<SubmissionLoaded, SubmissionOutcome>,
    events: SubmissionEvents,
    commandId: string,
  ): Promise<Submission>;

  /** Any state; null when unknown or of another organization. */
  get(orgId: number, oneshotId: number): Promise<Oneshot | null>;
  /** By its id; null when unknown or of another organization. */
  getSubmission(orgId: number, submissionId: number): Promise<Submission | null>;
  findSubmission(orgId: number, key: SubmissionKey): Promise<Submission | null>;
  /** Those of the ids that are the organization's submissions, ascending by id (the performance metric report). */
  getSubmissions(orgId: number, submissionIds: number[]): Promise<Submission[]>;
  /** A form's submissions matching the query, ascending by id, one page, with how many match in all. */
  listSubmissions(orgId: number, query: SubmissionQuery): Promise<SubmissionPage<Submission>>;
  /**
   * Outstanding and released (what the device knows of), ascending by id; with a `window`,
   * only those with an id above `afterId`, `offset` of them passed over, at most `limit`.
   */
  listOutstandingForDevice(orgId: number, deviceId: number, window?: ListWindow): Promise<Oneshot[]>;
  /**
   * Outstanding and released, as the organization listing shows them (no payload), ascending by id, from
   * the first with an id above `afterId` (default 0), read in pages so a long list is never
   * held whole. Stopping the iteration early reads no more; with `limit`, at most that many
   * are read and yielded.
   */
  streamOutstandingForOrganization(orgId: number, afterId?: number, limit?: number, offset?: number): AsyncIterable<OneshotSummary>;
  /**
   * v3 listings: the organization's outstanding dispatches (of one device, unless null),
   * released or not, ascending by id, `limit` from `offset`, with how many there are in all;
   * no payloads.
   */
  listDispatches(orgId: number, deviceId: number | null, offset: number, limit: number): Promise<DispatchPage>;
  /**
   * How many outstanding dispatches a device has, released or not (listDispatches' total):
   * the create's cap check, which needs no row (issue 24: reading a page as well cost more
   * than the create's own writes).
   */
  countOutstanding(orgId: number, deviceId: number): Promise<number>;
  /**
   * The devices that have outstanding dispatches (released or not), once each, ascending by
   * organization then device, at most `limit`, after `after` when given: how the
   * deletions sweep walks them. A page may hold fewer than `limit` while more follow;
   * only an empty page is the end.
   */
  devicesWithOutstanding(after: DeviceRef | undefined, limit: number): Promise<DeviceRef[]>;
  /** The forms the organization's outstanding dispatches (released or not) are of, ascending: for the deletions sweep. */
  formsWithOutstanding(orgId: number): Promise<number[]>;
  /** The devices that have outstanding dispatches of the form (released or not), ascending: a deleted form's, to revoke. */
  devicesWithOutstandingOfForm(orgId: number, formId: number): Promise<number[]>;
  /** Outstanding, unreleased and scheduled at or before `now`, any organization, earliest first, at most `limit`; no payloads. */
  listDue(now: string, limit: number): Promise<DispatchSummary[]>;

  /** Events written but not yet marked published, oldest first. */
  unpublishedEvents(limit: number): Promise<OutboxEntry[]>;
  /**
   * Optional: `listener` is handed each event this store object writes to the outbox, at
   * the commit that keeps it (never one rolled back), so the relay need not read it back.
   * The outbox row stays the truth: a relay reads it again after a failure or a restart.
   */
  onEventCommitted?(listener: (entry: OutboxEntry) => void): void;
  markPublished(seqs: number[]): Promise<void>;
  /** The outbox's size and the time of its oldest event (metrics, read on each scrape: a count and one row). */
  outboxBacklog(): Promise<OutboxBacklog>;

  /** The Idempotency-Keys of the push database: those `createKeyed` records, and any other command's. */
  readonly keys: IdempotencyStore;
  /** The submission images (v3/submission_image.md) of the same database. */
  readonly images: SubmissionImageStore;
}
