import { nextMongoId } from '@formcast/storage';
import type { ClientSession, Connection } from 'mongoose';
import { organizationNotFound, unknownIdsAmong } from '../domain/errors';
import { conflictFromDuplicateKey } from './mongo-duplicate-key';
import type { AppliedCommandDoc, DirectoryModels, GroupDoc } from './mongo-models';

type Session = ClientSession | null;
type IdDoc = { _id: number };

/**
 * What the four MongoDB parts of the directory share: one connection and its models (see
 * MongoDirectoryStore), how they write, and the steps several of them take.
 */
export class MongoDirectoryDb {
  constructor(
    readonly connection: Connection,
    readonly models: DirectoryModels,
    /** The store's start (collections, indexes, migrations): await it before the first operation (see MongoStore.start). */
    private readonly started: () => Promise<void>,
    private readonly inTransaction: <T>(change: (session: ClientSession) => Promise<T>) => Promise<T>,
  ) {}

  /** The store's start: await it before the first operation. */
  get ready(): Promise<void> {
    return this.started();
  }

  /** Several documents changed together, or not at all. */
  transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T> {
    return this.write(() => this.inTransaction(change));
  }

  /**
   * Load, decide, save, in one transaction: the record of the `model` document `filter`
   * finds (none: the error `missing` makes), then what `decide` makes of it, set on the
   * document as `toSet` gives it. Answers the record as changed.
   */
  decideAndSave<D, R, C extends Partial<R>>(
    model: 'Form' | 'ApiToken',
    filter: { _id: number; orgId: number },
    toRecord: (doc: D) => R,
    missing: () => Error,
    decide: (record: R) => C,
    toSet: (change: C) => Record<string, unknown>,
  ): Promise<R> {
    // One model type, as in requireIds: both answer these two operations alike.
    const documents = this.models[model] as unknown as DirectoryModels['Form'];
    return this.transaction(async (session) => {
      const doc = await documents.findOne(filter).session(session).lean<D>();
      if (!doc) throw missing();
      const record = toRecord(doc);
      const change = decide(record);
      await documents.updateOne(filter, { $set: toSet(change) }, { session });
      return { ...record, ...change };
    });
  }

  /**
   * A create applied once per command id (see FormStore.create, GroupStore.create): in one
   * transaction, the records it applied before (`replay`, from the ids recorded), or `create`
   * and its command id recorded with the ids it made. Two duplicates racing each other both
   * insert the command's `applied_commands` document (its `_id` is the command id): one
   * commits, the other is retried by the driver (a write conflict) or fails on the unique
   * `_id` and runs once more, finding the record; what it had created rolls back with it
   * (its ids, taken outside the transaction, stay unused: see nextId).
   */
  async createOnce<T>(
    orgId: number,
    commandId: string,
    replay: (createdIds: number[], session: ClientSession) => Promise<T>,
    create: (session: ClientSession) => Promise<{ answer: T; createdIds: number[] }>,
  ): Promise<T> {
    const { AppliedCommand } = this.models;
    const attempt = () =>
      this.transaction(async (session) => {
        // applied_commands: by _id.
        const applied = await AppliedCommand.findOne({ _id: commandId, orgId }).session(session).lean<AppliedCommandDoc>();
        if (applied) return replay(applied.createdIds, session);
        const { answer, createdIds } = await create(session);
        if (createdIds.length > 0) {
          await AppliedCommand.create([{ _id: commandId, orgId, createdIds, appliedAt: new Date() }], { session });
        }
        return answer;
      });
    try {
      return await attempt();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
      return attempt();
    }
  }

  /** Waits for the collections, and turns a unique index violated into its conflict error. */
  async write<T>(change: () => Promise<T>): Promise<T> {
    await this.ready;
    try {
      return await change();
    } catch (error) {
      throw conflictFromDuplicateKey(error) ?? error;
    }
  }

  /** The record of the document `query` finds, if any; the query runs once the collections exist. */
  async one<D, R>(query: PromiseLike<D | null>, toRecord: (doc: D) => R | Promise<R>): Promise<R | null> {
    await this.ready;
    const doc = await query;
    return doc ? toRecord(doc) : null;
  }

  /** The records of the documents `query` finds, once the collections exist. */
  async all<D, R>(query: PromiseLike<D[]>, toRecord: (doc: D) => R): Promise<R[]> {
    await this.ready;
    return (await query).map(toRecord);
  }

  /**
   * The collection's next id. Taken outside the transaction whatever `_inTransaction` says
   * (see nextMongoId): a counter written inside transactions would make every organization's
   * creations conflict with each other.
   */
  nextId(collection: string, _inTransaction?: ClientSession): Promise<number> {
    return nextMongoId(this.connection, collection);
  }

  async requireOrganization(orgId: number, session: Session): Promise<void> {
    // organizations: by _id.
    if (!(await this.models.Organization.exists({ _id: orgId }).session(session))) {
      throw organizationNotFound(orgId);
    }
  }

  /** Throws 'invalid' naming the ids that are not this organization's forms/devices/groups. */
  async requireIds(kind: 'Form' | 'Device' | 'Group', orgId: number, ids: number[], session: Session): Promise<void> {
    // The three models answer this query alike; one model type spares TypeScript merging
    // their overloads into a union it cannot call.
    const model = this.models[kind] as unknown as DirectoryModels['Form'];
    // forms, devices, groups: by _id (orgId checked on those documents).
    const found = await model
      .find({ orgId, _id: { $in: ids } }, { _id: 1 })
      .session(session)
      .lean<IdDoc[]>();
    const error = unknownIdsAmong(
      kind,
      ids,
      found.map((doc) => doc._id),
    );
    if (error) throw error;
  }

  /**
   * The group, written to so that a concurrent group deletion conflicts with this
   * transaction (see GroupDoc.changeCount). Default is never deleted, so it is left alone: it
   * would otherwise be a write hot spot for every enrollment and form creation.
   */
  async lockGroup(orgId: number, groupId: number, session: ClientSession): Promise<GroupDoc | null> {
    const { Group } = this.models;
    // groups: by _id.
    const group = await Group.findOne({ _id: groupId, orgId }).session(session).lean<GroupDoc>();
    if (group && !group.isDefault) {
      await Group.updateOne({ _id: groupId, orgId }, { $inc: { changeCount: 1 } }, { session });
    }
    return group;
  }

  async lockGroups(orgId: number, groupIds: number[], session: ClientSession): Promise<void> {
    if (groupIds.length === 0) return;
    await this.models.Group.updateMany(
      { orgId, _id: { $in: groupIds }, isDefault: false },
      { $inc: { changeCount: 1 } },
      { session },
    );
  }
}
