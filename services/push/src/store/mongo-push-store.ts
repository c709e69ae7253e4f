import { AppError } from '@formcast/platform';
import { mongoCounterModel, nextMongoId } from '@formcast/storage';
import type { Envelope } from '@formcast/contracts';
import type { ClientSession, Connection } from 'mongoose';
import type { OneshotEventFactory } from '../domain/oneshot-events';
import type { Oneshot, OneshotSummary, Submission } from '../domain/records';
import { oneshotFromDoc, submissionFromDoc, summaryFromDoc, summaryProjection, type OneshotSummaryDoc } from './mongo-push-records';
import { CommandWindow, type CommandWindowOptions } from './command-window';
import { pushModels, type AppliedCommandDoc, type OneshotDoc, type OutboxDoc, type PushModels, type SubmissionDoc } from './mongo-models';
import type { NewOneshot, OneshotChange, OutboxEntry, PushStore } from './push-store';

export interface MongoPushStoreOptions extends CommandWindowOptions {
  /** Documents per page of `streamOutstandingForOrganization` (500); tests make it small. */
  pageSize?: number;
}

/** A transition's result as recorded with its command id: the oneshots it is about, read again for a repeat. */
interface Recorded<T> {
  ids: (result: T) => number[];
  again: (oneshotIds: number[], session?: ClientSession) => Promise<T>;
}

const defaultPageSize = 500;
/** The counter the outbox seqs come from (see `appendEvents`). */
const outboxCounter = 'outbox';

const notOutstanding = (id: number) => new AppError('not_found', `Oneshot ${id} is not outstanding on this device`);
/** Oneshots and submissions are never deleted, so this is a bug, not a state. */
const recordedMissing = (id: number | undefined) => new Error(`Oneshot ${id}, recorded by an applied command, is missing`);

function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/**
 * The push store on MongoDB (distributed mode). Each transition writes the oneshot, its
 * outbox document(s) and its command id (`applied_commands`) in one transaction (a replica
 * set is needed; a single-node one is enough), so a crash leaves all or none.
 *
 * Every transition also takes its outbox seq from the `outbox` counter inside that
 * transaction. Two transitions therefore always write the same document, so MongoDB lets
 * only one of them commit and retries the other (`withTransaction`): the outstanding count
 * each one reads is exact, and seqs follow commit order, which is the order the relay
 * publishes them in.
 */
export class MongoPushStore implements PushStore {
  private readonly models: PushModels;
  private readonly ready: Promise<void>;
  private readonly pageSize: number;
  private readonly commandWindow: CommandWindow;

  /**
   * Registers the push models on the connection (see `connectMongo`). The store owns the
   * connection from then on: `close()` closes it.
   */
  constructor(
    private readonly connection: Connection,
    options: MongoPushStoreOptions = {},
  ) {
    this.models = pushModels(connection);
    this.pageSize = options.pageSize ?? defaultPageSize;
    this.commandWindow = new CommandWindow(options);
    // Creating the collections (and, with autoIndex, their indexes) before the first
    // transaction: a transaction racing a collection's creation fails instead of waiting.
    const models = [...Object.values(this.models), mongoCounterModel(connection)];
    this.ready = Promise.all(models.map((model) => model.init())).then(() => undefined);
    this.ready.catch(() => undefined); // reported by the first operation that awaits it
  }

  /** Builds every index the schemas declare and drops others: the deploy step when autoIndex is off. */
  async syncIndexes(): Promise<void> {
    await this.ready;
    for (const model of Object.values(this.models)) await model.syncIndexes();
  }

  // Transitions ------------------------------------------------------------------------

  async create(input: NewOneshot, event: OneshotEventFactory, commandId: string): Promise<Oneshot> {
    return this.once(commandId, this.sameOneshot(input.orgId), async (session) => {
      const now = new Date();
      const doc: OneshotDoc = {
        _id: await nextMongoId(this.connection, 'oneshots', session),
        orgId: input.orgId,
        deviceId: input.deviceId,
        deviceIdentifier: input.deviceIdentifier,
        formId: input.formId,
        templateNamespace: input.templateNamespace,
        namespace: input.namespace,
        name: input.name,
        description: input.description,
        payload: input.payload,
        state: 'outstanding',
        createdAt: now,
        updatedAt: now,
      };
      await this.models.Oneshot.create([doc], { session });
      const oneshot = oneshotFromDoc(doc);
      await this.appendEvents([event(oneshot, await this.outstandingCount(input.orgId, input.deviceId, session))], session);
      return oneshot;
    });
  }

  async update(
    orgId: number,
    deviceId: number,
    oneshotId: number,
    change: OneshotChange,
    event: OneshotEventFactory,
    commandId: string,
  ): Promise<Oneshot> {
    return this.once(commandId, this.sameOneshot(orgId), async (session) => {
      const set: Partial<OneshotDoc> = { payload: change.payload, updatedAt: new Date() };
      if (change.name !== undefined) set.name = change.name;
      if (change.description !== undefined) set.description = change.description;
      const doc = await this.models.Oneshot.findOneAndUpdate(
        { _id: oneshotId, orgId, deviceId, state: 'outstanding' },
        { $set: set },
        { session, returnDocument: 'after' },
      ).lean<OneshotDoc>();
      if (!doc) throw notOutstanding(oneshotId);
      const oneshot = oneshotFromDoc(doc);
      await this.appendEvents([event(oneshot, await this.outstandingCount(orgId, deviceId, session))], session);
      return oneshot;
    });
  }

  async revoke(orgId: number, deviceId: number, oneshotId: number, event: OneshotEventFactory, commandId: string): Promise<Oneshot> {
    return this.once(commandId, this.sameOneshot(orgId), (session) => this.end(orgId, deviceId, oneshotId, 'revoked', event, session));
  }

  async revokeAll(orgId: number, deviceId: number, event: OneshotEventFactory, commandId: string): Promise<Oneshot[]> {
    const { Oneshot } = this.models;
    return this.once(commandId, this.sameOneshots(orgId), async (session) => {
      const docs = await Oneshot.find({ orgId, deviceId, state: 'outstanding' })
        .sort({ _id: 1 })
        .session(session)
        .lean<OneshotDoc[]>();
      if (docs.length === 0) return [];
      const updatedAt = new Date();
      await Oneshot.updateMany(
        { orgId, deviceId, state: 'outstanding', _id: { $in: docs.map((doc) => doc._id) } },
        { $set: { state: 'revoked', updatedAt } },
        { session },
      );
      const revoked = docs.map((doc) => oneshotFromDoc({ ...doc, state: 'revoked', updatedAt }));
      // One event per oneshot, as if revoked one after the other: the i-th leaves the ones
      // after it (and any the snapshot holds besides) outstanding.
      const remaining = await this.outstandingCount(orgId, deviceId, session);
      const events = revoked.map((oneshot, i) => event(oneshot, remaining + revoked.length - 1 - i));
      await this.appendEvents(events, session);
      return revoked;
    });
  }

  async complete(
    orgId: number,
    deviceId: number,
    oneshotId: number,
    answers: Record<string, unknown>,
    event: OneshotEventFactory,
    commandId: string,
  ): Promise<Submission> {
    return this.once(commandId, this.sameSubmission(orgId), async (session) => {
      const current = await this.models.Oneshot.findOne({ _id: oneshotId, orgId }, { deviceId: 1, state: 1 })
        .session(session)
        .lean<Pick<OneshotDoc, '_id' | 'deviceId' | 'state'>>();
      if (!current || current.deviceId !== deviceId) throw new AppError('not_found', `Oneshot ${oneshotId} does not exist`);
      if (current.state !== 'outstanding') {
        throw new AppError('conflict', `Oneshot ${oneshotId} is ${current.state}; it can no longer be submitted`);
      }
      const submission: SubmissionDoc = { _id: oneshotId, orgId, deviceId, answers, submittedAt: new Date() };
      await this.models.Submission.create([submission], { session });
      await this.end(orgId, deviceId, oneshotId, 'completed', event, session);
      return submissionFromDoc(submission);
    });
  }

  // Reads ------------------------------------------------------------------------------

  async get(orgId: number, oneshotId: number): Promise<Oneshot | null> {
    await this.ready;
    const doc = await this.models.Oneshot.findOne({ _id: oneshotId, orgId }).lean<OneshotDoc>();
    return doc ? oneshotFromDoc(doc) : null;
  }

  async getSubmission(orgId: number, oneshotId: number): Promise<Submission | null> {
    await this.ready;
    const doc = await this.models.Submission.findOne({ _id: oneshotId, orgId }).lean<SubmissionDoc>();
    return doc ? submissionFromDoc(doc) : null;
  }

  async listOutstandingForDevice(orgId: number, deviceId: number): Promise<Oneshot[]> {
    await this.ready;
    const docs = await this.models.Oneshot.find({ orgId, deviceId, state: 'outstanding' })
      .sort({ _id: 1 })
      .lean<OneshotDoc[]>();
    return docs.map(oneshotFromDoc);
  }

  /** Page after page of `_id > last`, so only one page is ever held. */
  async *streamOutstandingForOrganization(orgId: number, afterId = 0, limit = Infinity): AsyncIterable<OneshotSummary> {
    await this.ready;
    let after = afterId;
    let left = limit;
    while (left > 0) {
      const size = Math.min(this.pageSize, left);
      const docs = await this.models.Oneshot.find({ orgId, state: 'outstanding', _id: { $gt: after } }, summaryProjection)
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

  async unpublishedEvents(limit: number): Promise<OutboxEntry[]> {
    // MongoDB reads limit(0) as "no limit".
    if (limit <= 0) return [];
    await this.ready;
    const docs = await this.models.Outbox.find().sort({ _id: 1 }).limit(limit).lean<OutboxDoc[]>();
    return docs.map((doc) => ({ seq: doc._id, event: doc.event }));
  }

  async markPublished(seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.ready;
    await this.models.Outbox.deleteMany({ _id: { $in: seqs } });
  }

  // Lifecycle --------------------------------------------------------------------------

  async ping(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', 'The push database is not connected');
    await db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  // Shared steps -----------------------------------------------------------------------

  /**
   * `apply` in a transaction, recorded under `commandId`; or, when that id is recorded
   * already, the first result again with nothing written. Two duplicates racing each other
   * both write the outbox counter, so MongoDB commits one and `withTransaction` retries the
   * other, which then finds the record; should one still reach its insert, the unique `_id`
   * refuses it and the record it lost to answers.
   */
  private async once<T>(commandId: string, recorded: Recorded<T>, apply: (session: ClientSession) => Promise<T>): Promise<T> {
    try {
      return await this.transaction(async (session) => {
        const applied = await this.appliedCommand(commandId, session);
        if (applied) return recorded.again(applied.oneshotIds, session);
        const result = await apply(session);
        const doc: AppliedCommandDoc = { _id: commandId, oneshotIds: recorded.ids(result), appliedAt: this.commandWindow.now() };
        await this.models.AppliedCommand.create([doc], { session });
        if (this.commandWindow.pruneDue()) await this.forgetExpiredCommands(session);
        return result;
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const applied = await this.appliedCommand(commandId);
      if (!applied) throw error;
      return recorded.again(applied.oneshotIds);
    }
  }

  private async appliedCommand(commandId: string, session?: ClientSession): Promise<Pick<AppliedCommandDoc, 'oneshotIds'> | null> {
    return this.models.AppliedCommand.findById(commandId, { oneshotIds: 1 })
      .session(session ?? null)
      .lean<Pick<AppliedCommandDoc, 'oneshotIds'>>();
  }

  /** A bounded batch, oldest first (MongoDB's deleteMany takes no limit). */
  private async forgetExpiredCommands(session: ClientSession): Promise<void> {
    const { AppliedCommand } = this.models;
    const expired = await AppliedCommand.find({ appliedAt: { $lt: this.commandWindow.cutoff() } }, { _id: 1 })
      .sort({ appliedAt: 1 })
      .limit(this.commandWindow.pruneBatch)
      .session(session)
      .lean<Array<Pick<AppliedCommandDoc, '_id'>>>();
    if (expired.length > 0) await AppliedCommand.deleteMany({ _id: { $in: expired.map((doc) => doc._id) } }, { session });
  }

  private sameOneshot(orgId: number): Recorded<Oneshot> {
    return {
      ids: (oneshot) => [oneshot.id],
      again: async (ids, session) => {
        const [oneshot] = await this.recordedOneshots(orgId, ids, session);
        if (!oneshot) throw recordedMissing(ids[0]);
        return oneshot;
      },
    };
  }

  private sameOneshots(orgId: number): Recorded<Oneshot[]> {
    return {
      ids: (oneshots) => oneshots.map((oneshot) => oneshot.id),
      again: (ids, session) => this.recordedOneshots(orgId, ids, session),
    };
  }

  private sameSubmission(orgId: number): Recorded<Submission> {
    return {
      ids: (submission) => [submission.oneshotId],
      again: async ([id], session) => {
        if (id === undefined) throw recordedMissing(id);
        const doc = await this.models.Submission.findOne({ _id: id, orgId })
          .session(session ?? null)
          .lean<SubmissionDoc>();
        if (!doc) throw recordedMissing(id);
        return submissionFromDoc(doc);
      },
    };
  }

  /** The oneshots of these ids, in this order. */
  private async recordedOneshots(orgId: number, ids: number[], session?: ClientSession): Promise<Oneshot[]> {
    if (ids.length === 0) return [];
    const docs = await this.models.Oneshot.find({ orgId, _id: { $in: ids } })
      .session(session ?? null)
      .lean<OneshotDoc[]>();
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    return ids.map((id) => {
      const doc = byId.get(id);
      if (!doc) throw recordedMissing(id);
      return oneshotFromDoc(doc);
    });
  }

  /** outstanding → `state`, with its event; not_found unless outstanding on that device. */
  private async end(
    orgId: number,
    deviceId: number,
    oneshotId: number,
    state: 'revoked' | 'completed',
    event: OneshotEventFactory,
    session: ClientSession,
  ): Promise<Oneshot> {
    const doc = await this.models.Oneshot.findOneAndUpdate(
      { _id: oneshotId, orgId, deviceId, state: 'outstanding' },
      { $set: { state, updatedAt: new Date() } },
      { session, returnDocument: 'after' },
    ).lean<OneshotDoc>();
    if (!doc) throw notOutstanding(oneshotId);
    const oneshot = oneshotFromDoc(doc);
    await this.appendEvents([event(oneshot, await this.outstandingCount(orgId, deviceId, session))], session);
    return oneshot;
  }

  /** The device's outstanding oneshots as this transaction sees them (its own changes included). */
  private async outstandingCount(orgId: number, deviceId: number, session: ClientSession): Promise<number> {
    return this.models.Oneshot.countDocuments({ orgId, deviceId, state: 'outstanding' }).session(session);
  }

  /** The events, in order, each with the next seq of the `outbox` counter. */
  private async appendEvents(events: Envelope[], session: ClientSession): Promise<void> {
    const docs: OutboxDoc[] = [];
    for (const event of events) docs.push({ _id: await nextMongoId(this.connection, outboxCounter, session), event });
    await this.models.Outbox.insertMany(docs, { session });
  }

  /** The change and its events together, or neither. */
  private async transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T> {
    await this.ready;
    return this.connection.transaction(change);
  }
}
