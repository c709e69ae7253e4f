import type { Envelope } from '@formcast/contracts';
import type { OneshotEventFactory } from '../domain/oneshot-events';
import type { Oneshot, OneshotSummary, Submission } from '../domain/records';

export interface NewOneshot {
  orgId: number;
  deviceId: number;
  deviceIdentifier: string;
  formId: number;
  templateNamespace: string;
  namespace: string;
  name: string;
  description: string;
  payload: Record<string, unknown>;
}

export interface OneshotChange {
  payload: Record<string, unknown>;
  name?: string;
  description?: string;
}

export interface OutboxEntry {
  seq: number;
  event: Envelope;
}

/**
 * The push service's store port. Every transition writes the oneshot and its event (built
 * by the given factory with the device's outstanding count after the change) in one local
 * write: the outbox. Everything is scoped by organization; a oneshot of another
 * organization or device behaves as unknown.
 *
 * Errors (AppError): 'not_found' when the oneshot is not outstanding on that device (unknown,
 * foreign, revoked or completed), except `complete`, which answers 'conflict' for a oneshot
 * of this device that already ended. Nothing changes when a method throws.
 *
 * `commandId` is the id of the command envelope asking for the transition. Commands come
 * at least once (a replica that dies after the write, before its ack, leaves the command to
 * another), so each transition is applied at most once per command id: the id is recorded
 * in the same transaction as the change and its events, and a transition whose id is
 * already recorded changes nothing, writes no event and returns what the first one returned,
 * even when it would now fail (the oneshot has ended since). Ids are remembered for a window
 * (24 h by default; see `CommandWindow`), far longer than a command can be redelivered.
 *
 * What is recorded is the ids of the oneshots the command changed, not a copy of its
 * result: a record stays a few bytes whatever the payloads (images) or the number of
 * oneshots revoked at once, and a repeat reads them again. Ended oneshots and submissions
 * never change, so revoke, revokeAll and complete repeat exactly; create and update return
 * the oneshot as it is now, which differs only if another command changed it in the
 * seconds between the two deliveries.
 */
export interface PushStore {
  create(input: NewOneshot, event: OneshotEventFactory, commandId: string): Promise<Oneshot>;
  /** Replaces payload (and name/description when given) of an outstanding oneshot. */
  update(
    orgId: number,
    deviceId: number,
    oneshotId: number,
    change: OneshotChange,
    event: OneshotEventFactory,
    commandId: string,
  ): Promise<Oneshot>;
  /** outstanding → revoked. */
  revoke(orgId: number, deviceId: number, oneshotId: number, event: OneshotEventFactory, commandId: string): Promise<Oneshot>;
  /** Every outstanding oneshot of the device → revoked, one event each; returns them. */
  revokeAll(orgId: number, deviceId: number, event: OneshotEventFactory, commandId: string): Promise<Oneshot[]>;
  /** outstanding → completed, keeping the submission. */
  complete(
    orgId: number,
    deviceId: number,
    oneshotId: number,
    answers: Record<string, unknown>,
    event: OneshotEventFactory,
    commandId: string,
  ): Promise<Submission>;

  /** Any state; null when unknown or of another organization. */
  get(orgId: number, oneshotId: number): Promise<Oneshot | null>;
  getSubmission(orgId: number, oneshotId: number): Promise<Submission | null>;
  /** Outstanding, ascending by id. */
  listOutstandingForDevice(orgId: number, deviceId: number): Promise<Oneshot[]>;
  /**
   * Outstanding, as the organization listing shows them (no payload), ascending by id, from
   * the first with an id above `afterId` (default 0), read in pages so a long list is never
   * held whole. Stopping the iteration early reads no more; with `limit`, at most that many
   * are read and yielded.
   */
  streamOutstandingForOrganization(orgId: number, afterId?: number, limit?: number): AsyncIterable<OneshotSummary>;

  /** Events written but not yet marked published, oldest first. */
  unpublishedEvents(limit: number): Promise<OutboxEntry[]>;
  markPublished(seqs: number[]): Promise<void>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
