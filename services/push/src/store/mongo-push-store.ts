import { distinctRuns, isMongoDuplicateKey, MongoStore, nextMongoId } from '@formcast/storage';
import type { Envelope } from '@formcast/contracts';
import { loadMongoIdempotency, type IdempotencyStore, type MongoKeyCollection } from '@formcast/idempotency';
import { AppError } from '@formcast/platform';
import type { ClientSession, Connection, QueryFilter } from 'mongoose';
import type { OneshotEventFactory } from '../domain/oneshot-events';
import type { DispatchPage, DispatchSummary, NewOneshot, Oneshot, OneshotSummary, Submission } from '../domain/records';
import type { SubmissionPage, SubmissionQuery } from '../domain/submission-query';
import type { SubmissionLoaded, SubmissionOutcome } from '../domain/submission-rules';
import { CommandWindow, type CommandWindowOptions } from './command-window';
import { moveLegacySubmissions } from './mongo-legacy-submissions';
import { pushModels, type AppliedCommandDoc, type OneshotDoc, type OutboxDoc, type PushModels, type SubmissionDoc } from './mongo-models';
import {
  changesToSet,
  dispatchFromDoc,
  released,
  unreleased,
  oneshotFromDoc,
  oneshotToDoc,
  submissionFromDoc,
  submissionToDoc,
  summaryFromDoc,
  summaryProjection,
  type OneshotSummaryDoc,
} from './mongo-push-records';
import { MongoSubmissionImages } from './mongo-submission-images';
import { oneshotWrites } from './oneshot-changes';
import type { SubmissionImageStore } from './submission-image-store';
import type { CreateKey, DeviceRef, KeyedCreate, ListWindow, OutboxBacklog, OutboxEntry, PushStore, SubmissionEvents, SubmissionKey, SubmissionKeys, Transition } from './push-store';
import {
  answerOf,
  answerOneshot,
  answerOneshots,
  answerSubmission,
  recordedMissing,
  type RecordedAnswer,
  type WriteOutcome,
} from './recorded-answers';

export interface MongoPushStoreOptions extends CommandWindowOptions {
  /** Documents per page of `streamOutstandingForOrganization` (500); tests make it small. */
  pageSize?: number;
}

const defaultPageSize = 500;
/** The counter the outbox seqs come from (see `appendEvents`). */
const outboxCounter = 'outbox';
const isDuplicateKeyError = isMongoDuplicateKey;

/**
 * The push store on MongoDB (distributed mode). Each write saves the oneshot, its outbox
 * document(s) and its command id (`applied_commands`) in one transaction (a replica set is
 * needed; a single-node one is enough), so a crash leaves all or none.
 *
 * No document is written by every transaction. Ids and outbox seqs come from the `counters`
 * collection outside the transaction (see nextMongoId), so writes of different oneshots (of
 * different organizations above all) never conflict. Two writes of the same oneshot, or two
 * deliveries of one command, still do: both write that oneshot document (or both insert the
 * command's `_id`, or a submission under its unique key), MongoDB lets one commit and
 * `withTransaction` retries the other, which then loads what the first saved, so a transition
 * never decides on a stale oneshot.
 *
 * Seqs: an event's seq is taken after its transaction's writes. A transaction that conflicts
 * with another on a document cannot get past that write until the other commits, so the
 * events of one oneshot are in seq order, and an event caused by a committed one has a higher
 * seq. Events of unrelated transactions may commit out of seq order (a gap the relay sees
 * filled later); the relay publishes what it finds and deletes only those, so none is lost.
 *
 * Idempotency-Keys are the `idempotency_keys` collection of the same database; a keyed create
 * inserts its key in its own transaction, where a racing one meets it at the unique index.
 */
export class MongoPushStore extends MongoStore<PushModels> implements PushStore {
  private readonly pageSize: number;
  private readonly commandWindow: CommandWindow;
  private readonly keyCollection: MongoKeyCollection;
  readonly keys: IdempotencyStore;
  readonly images: SubmissionImageStore;
  private readonly imageStore: MongoSubmissionImages;

  /** Registers the push models on the connection; the store owns it from then on. */
  constructor(connection: Connection, options: MongoPushStoreOptions = {}) {
    super(connection, pushModels, 'push');
    const { MongoKeyCollection, MongoIdempotencyStore } = loadMongoIdempotency();
    this.keyCollection = new MongoKeyCollection(connection);
    this.keys = new MongoIdempotencyStore(connection, { ownsConnection: false });
    this.pageSize = options.pageSize ?? defaultPageSize;
    this.commandWindow = new CommandWindow(options);
    this.imageStore = new MongoSubmissionImages(connection, this.models, {
      transaction: (change) => this.transaction(change),
      appendEvents: (events, session) => this.appendEvents(events, session),
    });
    this.images = this.imageStore;
  }

  /** At start, once the indexes exist (see MongoStore.start). */
  protected override async migrate(): Promise<void> {
    await moveLegacySubmissions(this.connection, this.models);
  }

  // Writes -----------------------------------------------------------------------------

  async create(oneshot: NewOneshot, event: OneshotEventFactory, commandId: string): Promise<Oneshot> {
    return this.once(commandId, answerOneshot(this, oneshot.orgId), (session) => this.insertOneshot(oneshot, event, session));
  }

  async createKeyed(oneshot: NewOneshot, event: OneshotEventFactory, key: CreateKey): Promise<KeyedCreate> {
    const attempt = () =>
      this.transaction(async (session): Promise<KeyedCreate> => {
        const decided = await this.keyCollection.decide(key, session);
        const { decision } = decided;
        if (decision.write === 'none') return { found: decision.outcome };
        // No applied command recorded: the key's record, written here, is what a delivery of the
        // command again finds. Only a claim taken over may have been applied, under its own id.
        const created =
          decision.outcome.kind === 'stale'
            ? await this.createdUnder(decision.outcome.commandId, oneshot, event, session)
            : await this.insertOneshot(oneshot, event, session);
        // Within the transaction the key cannot change unseen (a racing write conflicts); should it, nothing is kept.
        if (!(await this.keyCollection.write(key, decided, { ok: true, value: key.answer(created) }, session))) {
          throw new AppError('unavailable', 'The Idempotency-Key changed while the dispatch was created: try again');
        }
        return { created };
      });
    try {
      return await attempt();
    } catch (error) {
      // Another create with the key committed first: this one finds its key now.
      if (!isDuplicateKeyError(error)) throw error;
      return attempt();
    }
  }

  async change(
    orgId: number,
    oneshotId: number,
    transition: Transition<Oneshot | null, Oneshot>,
    event: OneshotEventFactory,
    commandId: string,
  ): Promise<Oneshot> {
    return this.once(commandId, answerOneshot(this, orgId), async (session) => {
      const current = await this.load(orgId, oneshotId, session);
      const changed = transition(current);
      await this.save([current], [changed], event, session);
      return changed;
    });
  }

  async changeOutstanding(
    orgId: number,
    deviceId: number,
    transition: Transition<Oneshot[], Oneshot[]>,
    event: OneshotEventFactory,
    commandId: string,
    limit?: number,
  ): Promise<Oneshot[]> {
    return this.once(commandId, answerOneshots(this, orgId), async (session) => {
      const outstanding = await this.loadOutstanding(orgId, deviceId, { releasedOnly: false, limit }, session);
      const changed = transition(outstanding);
      await this.save(outstanding, changed, event, session);
      return changed;
    });
  }

  /**
   * One transaction: the loads, the release decided on them, the saves and the events.
   * Two replicas releasing the same ones both write the outbox counter, so MongoDB commits
   * one and retries the other, which then loads them released and releases none again.
   */
  async release(oneshotIds: number[], transition: Transition<Oneshot[], Oneshot[]>, event: OneshotEventFactory): Promise<Oneshot[]> {
    if (oneshotIds.length === 0) return [];
    await this.ready;
    return this.transaction(async (session) => {
      // oneshots: by _id.
      const docs = await this.models.Oneshot.find({ _id: { $in: oneshotIds } })
        .sort({ _id: 1 })
        .session(session)
        .lean<OneshotDoc[]>();
      const loaded = docs.map(oneshotFromDoc);
      const releasedNow = transition(loaded);
      await this.save(loaded, releasedNow, event, session);
      return releasedNow;
    });
  }

  async submit(
    keys: SubmissionKeys,
    transition: Transition<SubmissionLoaded, SubmissionOutcome>,
    events: SubmissionEvents,
    commandId: string,
  ): Promise<Submission> {
    await this.ready;
    return this.once(commandId, answerSubmission(this, keys.orgId), async (session) => {
      const { orgId, deviceId, oneshotId, clientSubmissionId } = keys;
      const oneshot = oneshotId === null ? null : await this.load(orgId, oneshotId, session);
      const earlier = clientSubmissionId === null ? null : await this.loadSubmission(orgId, { deviceId, clientSubmissionId }, session);
      const outcome = transition({ oneshot, earlier });
      if ('repeated' in outcome) return outcome.repeated;
      const submission: Submission = { id: await nextMongoId(this.connection, 'submissions'), ...outcome.submission };
      await this.models.Submission.create([submissionToDoc(submission)], { session });
      if (outcome.completed) await this.save([oneshot], [outcome.completed], events.completed, session);
      await this.imageStore.announceOrHold(submission, events.received(submission), events.namedImages ?? [], session);
      return submission;
    });
  }

  // Reads ------------------------------------------------------------------------------

  async get(orgId: number, oneshotId: number): Promise<Oneshot | null> {
    await this.ready;
    return this.load(orgId, oneshotId);
  }

  async getSubmission(orgId: number, submissionId: number): Promise<Submission | null> {
    await this.ready;
    // form_submissions: by _id.
    const doc = await this.models.Submission.findOne({ _id: submissionId, orgId }).lean<SubmissionDoc>();
    return doc ? submissionFromDoc(doc) : null;
  }

  async getSubmissions(orgId: number, submissionIds: number[]): Promise<Submission[]> {
    await this.ready;
    // form_submissions: by _id.
    const docs = await this.models.Submission.find({ _id: { $in: submissionIds }, orgId }).sort({ _id: 1 }).lean<SubmissionDoc[]>();
    return docs.map(submissionFromDoc);
  }

  async findSubmission(orgId: number, key: SubmissionKey): Promise<Submission | null> {
    await this.ready;
    return this.loadSubmission(orgId, key);
  }

  async listSubmissions(orgId: number, query: SubmissionQuery): Promise<SubmissionPage<Submission>> {
    await this.ready;
    const submittedAt = {
      ...(query.submittedAfter === undefined ? {} : { $gt: new Date(query.submittedAfter) }),
      ...(query.submittedBefore === undefined ? {} : { $lt: new Date(query.submittedBefore) }),
      ...(query.submittedFrom === undefined ? {} : { $gte: new Date(query.submittedFrom) }),
      ...(query.submittedTo === undefined ? {} : { $lte: new Date(query.submittedTo) }),
    };
    // Search: each of the form's answer paths (arrays of group rows are traversed by the path), the text as a literal, any case.
    const pattern = query.search === undefined ? undefined : new RegExp(query.search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    const filter = {
      orgId,
      formId: query.formId,
      ...(query.deviceIdentifier === undefined ? {} : { deviceIdentifier: query.deviceIdentifier }),
      ...(Object.keys(submittedAt).length === 0 ? {} : { submittedAt }),
      ...(query.ids === undefined ? {} : { _id: { $in: query.ids } }),
      ...(pattern === undefined ? {} : { $or: searchClauses(query.searchPaths ?? [], pattern) }),
    };
    // MongoDB reads limit(0) as "no limit"; the query's limit is at least 1. The count and the
    // page from one snapshot, as SQLite answers them. form_submissions: { orgId, formId, _id },
    // or { orgId, formId, deviceIdentifier, _id } with a device.
    const { total, docs } = await this.snapshotRead(async (session) => ({
      total: await this.models.Submission.countDocuments(filter).session(session),
      docs: await this.models.Submission.find(filter).sort({ _id: 1 }).skip(query.offset).limit(query.limit).session(session).lean<SubmissionDoc[]>(),
    }));
    return { total, submissions: docs.map(submissionFromDoc) };
  }

  async listOutstandingForDevice(orgId: number, deviceId: number, window?: ListWindow): Promise<Oneshot[]> {
    await this.ready;
    if (!window) return this.loadOutstanding(orgId, deviceId, { releasedOnly: true });
    // oneshots: { orgId, deviceId, state, _id }.
    let query = this.models.Oneshot.find({ orgId, deviceId, state: 'outstanding', ...released, _id: { $gt: window.afterId ?? 0 } }).sort({ _id: 1 });
    if (window.offset) query = query.skip(window.offset);
    if (window.limit !== undefined) query = query.limit(window.limit);
    return (await query.lean<OneshotDoc[]>()).map(oneshotFromDoc);
  }

  async listDispatches(orgId: number, deviceId: number | null, offset: number, limit: number): Promise<DispatchPage> {
    await this.ready;
    const filter = { orgId, state: 'outstanding' as const, ...(deviceId === null ? {} : { deviceId }) };
    // One snapshot for the count and the page. oneshots: { orgId, deviceId, state, _id } with a
    // device, { orgId, state, _id } without.
    const { total, docs } = await this.snapshotRead(async (session) => ({
      total: await this.models.Oneshot.countDocuments(filter).session(session),
      docs: await this.models.Oneshot.find(filter, { payload: 0 }).sort({ _id: 1 }).skip(offset).limit(limit).session(session).lean<Array<Omit<OneshotDoc, 'payload'>>>(),
    }));
    return { total, dispatches: docs.map(dispatchFromDoc) };
  }

  async countOutstanding(orgId: number, deviceId: number): Promise<number> {
    await this.ready;
    return this.models.Oneshot.countDocuments({ orgId, deviceId, state: 'outstanding' });
  }

  async devicesWithOutstanding(after: DeviceRef | undefined, limit: number): Promise<DeviceRef[]> {
    await this.ready;
    const from = after ? { $or: [{ orgId: { $gt: after.orgId } }, { orgId: after.orgId, deviceId: { $gt: after.deviceId } }] } : {};
    // oneshots: { orgId, deviceId, state, _id }, state read from the index. `limit` oneshots
    // give at least one device; the last may have more past the page, which the next skips.
    const docs = await this.models.Oneshot.find({ ...from, state: 'outstanding' }, { _id: 0, orgId: 1, deviceId: 1 })
      .sort({ orgId: 1, deviceId: 1 })
      .limit(limit)
      .lean<DeviceRef[]>();
    return distinctRuns(docs, (a, b) => a.orgId === b.orgId && a.deviceId === b.deviceId).map(({ orgId, deviceId }) => ({ orgId, deviceId }));
  }

  async formsWithOutstanding(orgId: number): Promise<number[]> {
    await this.ready;
    // oneshots: { orgId, state, _id }, the form read from the documents.
    return ((await this.models.Oneshot.distinct('formId', { orgId, state: 'outstanding' })) as number[]).sort((a, b) => a - b);
  }

  async devicesWithOutstandingOfForm(orgId: number, formId: number): Promise<number[]> {
    await this.ready;
    // oneshots: { orgId, state, _id }, the form read from the documents.
    return ((await this.models.Oneshot.distinct('deviceId', { orgId, state: 'outstanding', formId })) as number[]).sort((a, b) => a - b);
  }

  async listDue(now: string, limit: number): Promise<DispatchSummary[]> {
    if (limit <= 0) return [];
    await this.ready;
    // oneshots: the partial { scheduledAt, _id } (its filter, state and `unreleased`, is in the query).
    const docs = await this.models.Oneshot.find({ state: 'outstanding', ...unreleased, scheduledAt: { $lte: new Date(now) } }, { payload: 0 })
      .sort({ scheduledAt: 1, _id: 1 })
      .limit(limit)
      .lean<Array<Omit<OneshotDoc, 'payload'>>>();
    return docs.map(dispatchFromDoc);
  }

  /** Page after page of `_id > last`, so only one page is ever held. */
  async *streamOutstandingForOrganization(orgId: number, afterId = 0, limit = Infinity, offset = 0): AsyncIterable<OneshotSummary> {
    await this.ready;
    let after = afterId;
    if (offset > 0) {
      // The id `offset` places on: the pages go on from it.
      const [passed] = await this.models.Oneshot.find({ orgId, state: 'outstanding', ...released, _id: { $gt: after } }, { _id: 1 })
        .sort({ _id: 1 })
        .skip(offset - 1)
        .limit(1)
        .lean<Array<{ _id: number }>>();
      if (!passed) return;
      after = passed._id;
    }
    let left = limit;
    while (left > 0) {
      const size = Math.min(this.pageSize, left);
      // oneshots: { orgId, state, _id }.
      const docs = await this.models.Oneshot.find({ orgId, state: 'outstanding', ...released, _id: { $gt: after } }, summaryProjection)
        .sort({ _id: 1 })
        .limit(size)
        .lean<OneshotSummaryDoc[]>();
      for (const doc of docs) yield summaryFromDoc(doc);
      const last = docs.at(-1);
      if (!last || docs.length < size) return;
      after = last._id;
      left -= docs.length;
    }
  }

  // Outbox -----------------------------------------------------------------------------

  /**
   * Fair across organizations, as the SQLite store's: the organizations with events waiting
   * (at most `limit`, the lowest first), then each one's oldest, an equal share of `limit`
   * (at least one), the batch filled up with the oldest of the rest, in seq order. Events
   * written before `orgId` was kept count as one organization of their own.
   */
  async unpublishedEvents(limit: number): Promise<OutboxEntry[]> {
    // MongoDB reads limit(0) as "no limit".
    if (limit <= 0) return [];
    await this.ready;
    const Outbox = this.models.Outbox;
    const organizations = await this.organizationsWaiting(limit);
    if (organizations.length <= 1) {
      // outbox: the _id index.
      const docs = await Outbox.find().sort({ _id: 1 }).limit(limit).lean<OutboxDoc[]>();
      return docs.map(outboxEntry);
    }
    const share = Math.max(1, Math.floor(limit / organizations.length));
    // outbox: { orgId, _id } (null finds the events without orgId).
    const shares = await Promise.all(organizations.map((orgId) => Outbox.find({ orgId }).sort({ _id: 1 }).limit(share).lean<OutboxDoc[]>()));
    const docs = shares.flat();
    // A batch shorter than `limit` still means all there was (the relay reads it so).
    if (docs.length < limit) {
      const taken = docs.map((doc) => doc._id);
      docs.push(
        ...(await Outbox.find({ _id: { $nin: taken } })
          .sort({ _id: 1 })
          .limit(limit - docs.length)
          .lean<OutboxDoc[]>()),
      );
    }
    docs.sort((a, b) => a._id - b._id);
    return docs.map(outboxEntry);
  }

  /** The organizations with events waiting, the lowest first, at most `limit`; null stands for the events kept without one. */
  private async organizationsWaiting(limit: number): Promise<Array<number | null>> {
    const Outbox = this.models.Outbox;
    const [kept, unmarked] = await Promise.all([Outbox.distinct('orgId'), Outbox.exists({ orgId: { $exists: false } })]);
    const organizations: Array<number | null> = (kept as unknown[]).filter((orgId): orgId is number => typeof orgId === 'number').sort((a, b) => a - b);
    if (unmarked) organizations.push(null);
    return organizations.slice(0, limit);
  }

  async markPublished(seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.ready;
    await this.models.Outbox.deleteMany({ _id: { $in: seqs } });
  }

  async outboxBacklog(): Promise<OutboxBacklog> {
    await this.ready;
    // The collection's count from its metadata, not a scan: a gauge, read on every scrape.
    const [count, oldest] = await Promise.all([
      this.models.Outbox.estimatedDocumentCount(),
      this.models.Outbox.findOne().sort({ _id: 1 }).select({ 'event.occurredAt': 1 }).lean<Pick<OutboxDoc, 'event'>>(),
    ]);
    return { count, oldestOccurredAt: oldest?.event.occurredAt ?? null };
  }

  // Shared steps -----------------------------------------------------------------------

  /**
   * `write` in a transaction, recorded under `commandId`; or, when that id is recorded
   * already, the first answer again with nothing written. Two duplicates racing each other
   * both write the outbox counter, so MongoDB commits one and `withTransaction` retries the
   * other, which then finds the record. Should one still reach its insert, a unique index
   * refuses it (the command's `_id`, or a submission's client id or oneshot) and it runs
   * once more, as the one that lost: it finds the record, or the submission, it lost to.
   */
  private async once<T>(commandId: string, recorded: RecordedAnswer<T>, write: (session: ClientSession) => Promise<T>): Promise<T> {
    const attempt = () =>
      this.transaction(async (session): Promise<WriteOutcome<T>> => {
        const applied = await this.appliedCommand(commandId, session);
        if (applied) return { appliedBefore: applied.oneshotIds };
        const answer = await write(session);
        await this.recordCommand(commandId, recorded.ids(answer), session);
        return { answer };
      });
    let outcome: WriteOutcome<T>;
    try {
      outcome = await attempt();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      outcome = await attempt();
    }
    if ('answer' in outcome) await this.pruneAfterCommit();
    return answerOf(outcome, recorded);
  }

  /** The oneshot the command created: now, or by an earlier delivery (read again). */
  private async createdUnder(commandId: string, oneshot: NewOneshot, event: OneshotEventFactory, session: ClientSession): Promise<Oneshot> {
    const [appliedId] = (await this.appliedCommand(commandId, session))?.oneshotIds ?? [];
    if (appliedId !== undefined) {
      const again = await this.load(oneshot.orgId, appliedId, session);
      if (!again) throw recordedMissing('Oneshot', appliedId);
      return again;
    }
    const created = await this.insertOneshot(oneshot, event, session);
    await this.recordCommand(commandId, [created.id], session);
    return created;
  }

  private async insertOneshot(oneshot: NewOneshot, event: OneshotEventFactory, session: ClientSession): Promise<Oneshot> {
    const created: Oneshot = { id: await nextMongoId(this.connection, 'oneshots'), ...oneshot };
    await this.models.Oneshot.create([oneshotToDoc(created)], { session });
    await this.appendEvents([event(created)].filter((each) => each !== null), session);
    return created;
  }

  private async appliedCommand(commandId: string, session?: ClientSession): Promise<Pick<AppliedCommandDoc, 'oneshotIds'> | null> {
    // applied_commands: by _id.
    return this.models.AppliedCommand.findById(commandId, { oneshotIds: 1 })
      .session(session ?? null)
      .lean<Pick<AppliedCommandDoc, 'oneshotIds'>>();
  }

  /** The record, in the change's transaction (its `_id` is what two duplicates collide on). */
  private async recordCommand(commandId: string, oneshotIds: number[], session: ClientSession): Promise<void> {
    const doc: AppliedCommandDoc = { _id: commandId, oneshotIds, appliedAt: this.commandWindow.now() };
    await this.models.AppliedCommand.create([doc], { session });
  }

  /**
   * After a command's transaction committed: every `pruneEvery` commands, a bounded batch of
   * expired records forgotten, oldest first. Outside any transaction, unlike SQLite's (where
   * the write holds the lock anyway): inside, it would make that user's write carry up to
   * `pruneBatch` deletes, and replicas pruning at once would conflict on the same documents
   * and retry the users' writes. Here each delete is its own; a replica deleting what another
   * just deleted deletes nothing. A failure is left to the next prune: the command is applied.
   */
  private async pruneAfterCommit(): Promise<void> {
    if (!this.commandWindow.pruneDue()) return;
    const { AppliedCommand } = this.models;
    const cutoff = this.commandWindow.cutoff();
    try {
      // applied_commands: the index { appliedAt: 1 }.
      const expired = await AppliedCommand.find({ appliedAt: { $lt: cutoff } }, { _id: 1 })
        .sort({ appliedAt: 1 })
        .limit(this.commandWindow.pruneBatch)
        .lean<Array<Pick<AppliedCommandDoc, '_id'>>>();
      // By _id (the _id index), each still expired.
      if (expired.length > 0) await AppliedCommand.deleteMany({ _id: { $in: expired.map((each) => each._id) }, appliedAt: { $lt: cutoff } });
    } catch {
      // Housekeeping: the next prune takes the same expired records first.
    }
  }

  private async load(orgId: number, oneshotId: number, session?: ClientSession): Promise<Oneshot | null> {
    // oneshots: by _id.
    const doc = await this.models.Oneshot.findOne({ _id: oneshotId, orgId })
      .session(session ?? null)
      .lean<OneshotDoc>();
    return doc ? oneshotFromDoc(doc) : null;
  }

  private async loadSubmission(orgId: number, key: SubmissionKey, session?: ClientSession): Promise<Submission | null> {
    // The partial unique indexes { orgId, oneshotId } and { orgId, deviceId, clientSubmissionId }.
    // A partial index serves a query that contains its `partialFilterExpression` (MongoDB's
    // documentation); that the planner derives `$type` from an equality is documented nowhere,
    // so each filter says it itself (else, possibly: a scan of the organization's submissions,
    // inside the submit's transaction). The Mongo suite checks the plan (explain).
    // (mongoose's types lack the alias 'number', which MongoDB reads as any numeric type, as the index does.)
    const filter = (
      'oneshotId' in key
        ? { orgId, oneshotId: { $eq: key.oneshotId, $type: 'number' } }
        : { orgId, deviceId: key.deviceId, clientSubmissionId: { $eq: key.clientSubmissionId, $type: 'string' } }
    ) as QueryFilter<SubmissionDoc>;
    const doc = await this.models.Submission.findOne(filter)
      .session(session ?? null)
      .lean<SubmissionDoc>();
    return doc ? submissionFromDoc(doc) : null;
  }

  /** `releasedOnly`: those the device knows of (not the dispatches scheduled for later); `limit`: the first that many. */
  private async loadOutstanding(
    orgId: number,
    deviceId: number,
    { releasedOnly, limit }: { releasedOnly: boolean; limit?: number | undefined },
    session?: ClientSession,
  ): Promise<Oneshot[]> {
    // oneshots: { orgId, deviceId, state, _id }. MongoDB reads limit(0) as "no limit".
    const docs = await this.models.Oneshot.find({ orgId, deviceId, state: 'outstanding', ...(releasedOnly ? released : {}) })
      .sort({ _id: 1 })
      .limit(limit ?? 0)
      .session(session ?? null)
      .lean<OneshotDoc[]>();
    return docs.map(oneshotFromDoc);
  }

  /** The oneshots a transition returned, given those it was handed (their updates in one round trip), with their events. */
  private async save(loaded: Array<Oneshot | null>, changed: Oneshot[], event: OneshotEventFactory, session: ClientSession): Promise<void> {
    const writes = oneshotWrites(loaded, changed);
    if (writes.length === 0) return;
    const events = writes.flatMap(({ oneshot }) => event(oneshot) ?? []);
    await this.models.Oneshot.bulkWrite(
      writes.map(({ oneshot, changes }) => ({
        updateOne: {
          filter: { _id: oneshot.id, orgId: oneshot.orgId },
          update: { $set: changesToSet(changes) },
        },
      })),
      { session },
    );
    await this.appendEvents(events, session);
  }

  /** The events, in order, under consecutive seqs of the `outbox` counter, taken in one step after the change's writes (see the class). */
  private async appendEvents(events: Envelope[], session: ClientSession): Promise<void> {
    if (events.length === 0) return;
    const first = await nextMongoId(this.connection, outboxCounter, events.length);
    const docs: OutboxDoc[] = events.map((event, i) => ({ _id: first + i, orgId: event.orgId ?? 0, event }));
    await this.models.Outbox.insertMany(docs, { session });
  }
}

/** One clause per answer path; no path (a form without questions) matches nothing ($or takes no empty list). */
function searchClauses(paths: string[], pattern: RegExp): Array<Record<string, unknown>> {
  return paths.length === 0 ? [{ orgId: -1 }] : paths.map((path) => ({ [`answers.${path}`]: pattern }));
}

function outboxEntry(doc: OutboxDoc): OutboxEntry {
  return { seq: doc._id, event: doc.event };
}
