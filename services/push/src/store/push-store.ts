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
 */
export interface PushStore {
  create(input: NewOneshot, event: OneshotEventFactory): Promise<Oneshot>;
  /** Replaces payload (and name/description when given) of an outstanding oneshot. */
  update(orgId: number, deviceId: number, oneshotId: number, change: OneshotChange, event: OneshotEventFactory): Promise<Oneshot>;
  /** outstanding → revoked. */
  revoke(orgId: number, deviceId: number, oneshotId: number, event: OneshotEventFactory): Promise<Oneshot>;
  /** Every outstanding oneshot of the device → revoked, one event each; returns them. */
  revokeAll(orgId: number, deviceId: number, event: OneshotEventFactory): Promise<Oneshot[]>;
  /** outstanding → completed, keeping the submission. */
  complete(orgId: number, deviceId: number, oneshotId: number, answers: Record<string, unknown>, event: OneshotEventFactory): Promise<Submission>;

  /** Any state; null when unknown or of another organization. */
  get(orgId: number, oneshotId: number): Promise<Oneshot | null>;
  getSubmission(orgId: number, oneshotId: number): Promise<Submission | null>;
  /** Outstanding, ascending by id. */
  listOutstandingForDevice(orgId: number, deviceId: number): Promise<Oneshot[]>;
  /**
   * Outstanding, as the organization listing shows them (no payload), ascending by id, from
   * the first with an id above `afterId` (default 0), read in pages so a long list is never
   * held whole. Stopping the iteration early reads no more.
   */
  streamOutstandingForOrganization(orgId: number, afterId?: number): AsyncIterable<OneshotSummary>;

  /** Events written but not yet marked published, oldest first. */
  unpublishedEvents(limit: number): Promise<OutboxEntry[]>;
  markPublished(seqs: number[]): Promise<void>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
