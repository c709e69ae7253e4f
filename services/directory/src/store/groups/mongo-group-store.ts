import type { ClientSession } from 'mongoose';
import { groupNotFound, organizationNotFound } from '../../domain/errors';
import type { FormMove, Group, GroupChange, GroupDeletion } from '../../domain/records';
import { listsByKey } from '../id-lists';
import type { MongoDirectoryDb } from '../mongo-directory-db';
import type { DeviceDoc, FormDoc, GroupDoc } from '../mongo-models';
import type { GroupStore } from './group-store';

type Session = ClientSession | null;
type IdDoc = { _id: number };

/**
 * Groups on the directory's MongoDB database (see MongoDirectoryStore). A group's forms and
 * devices are read from their documents (see GroupDoc).
 */
export class MongoGroupStore implements GroupStore {
  constructor(private readonly db: MongoDirectoryDb) {}

  async list(orgId: number): Promise<Group[]> {
    await this.db.ready;
    const { Group, Form, Device } = this.db.models;
    const [groups, forms, devices] = await Promise.all([
      // groups, forms, devices: { orgId, _id } each.
      Group.find({ orgId }).sort({ _id: 1 }).lean<GroupDoc[]>(),
      Form.find({ orgId }, { groupId: 1 }).sort({ _id: 1 }).lean<Array<Pick<FormDoc, '_id' | 'groupId'>>>(),
      Device.find({ orgId }, { groupIds: 1 })
        .sort({ _id: 1 })
        .lean<Array<Pick<DeviceDoc, '_id' | 'groupIds'>>>(),
    ]);
    const formIds = listsByKey(forms.map((form) => ({ key: form.groupId, value: form._id })));
    const deviceIds = listsByKey(
      devices.flatMap((device) => device.groupIds.map((groupId) => ({ key: groupId, value: device._id }))),
    );
    return groups.map((group) => groupFromDoc(group, formIds.get(group._id) ?? [], deviceIds.get(group._id) ?? []));
  }

  async names(orgId: number): Promise<Map<number, string>> {
    await this.db.ready;
    // groups: { orgId, _id }.
    const docs = await this.db.models.Group.find({ orgId }, { name: 1 })
      .sort({ _id: 1 })
      .lean<Array<Pick<GroupDoc, '_id' | 'name'>>>();
    return new Map(docs.map((doc) => [doc._id, doc.name]));
  }

  get(orgId: number, groupId: number): Promise<Group | null> {
    // groups: by _id.
    return this.db.one(this.db.models.Group.findOne({ _id: groupId, orgId }).lean<GroupDoc>(), (doc) => this.withMembers(doc, null));
  }

  findByName(orgId: number, name: string): Promise<Group | null> {
    // groups: the unique { orgId, name }.
    return this.db.one(this.db.models.Group.findOne({ orgId, name }).lean<GroupDoc>(), (doc) => this.withMembers(doc, null));
  }

  async defaultGroupId(orgId: number): Promise<number> {
    await this.db.ready;
    // groups: the partial unique { orgId } (isDefault: true, in the query).
    const doc = await this.db.models.Group.findOne({ orgId, isDefault: true }, { _id: 1 }).lean<IdDoc>();
    if (!doc) throw organizationNotFound(orgId);
    return doc._id;
  }

  async create(orgId: number, names: string[], commandId: string): Promise<Group[]> {
    const { Group } = this.db.models;
    return this.db.createOnce(
      orgId,
      commandId,
      async (groupIds, session) => {
        // groups: by _id.
        const docs = await Group.find({ orgId, _id: { $in: groupIds } }).session(session).lean<GroupDoc[]>();
        const byId = new Map(docs.map((doc) => [doc._id, doc]));
        const groups: Group[] = [];
        // One query after the other: operations of one transaction must not run concurrently.
        for (const groupId of groupIds) {
          const doc = byId.get(groupId);
          if (doc) groups.push(await this.withMembers(doc, session));
        }
        return groups;
      },
      async (session) => {
        if (names.length === 0) return { answer: [], createdIds: [] };
        await this.db.requireOrganization(orgId, session);
        const created: GroupDoc[] = [];
        for (const name of names) {
          created.push({ _id: await this.db.nextId('groups', session), orgId, name, isDefault: false, changeCount: 0 });
        }
        await Group.create(created, { session, ordered: true });
        return { answer: created.map((group) => groupFromDoc(group, [], [])), createdIds: created.map((group) => group._id) };
      },
    );
  }

  async update(orgId: number, groupId: number, decide: (group: Group) => GroupChange): Promise<Group> {
    const { Group, Device } = this.db.models;
    return this.db.transaction(async (session) => {
      const doc = await this.db.lockGroup(orgId, groupId, session);
      if (!doc) throw groupNotFound(groupId);
      const change = decide(await this.withMembers(doc, session));
      const { name, deviceIds } = change;
      if (name !== undefined) await Group.updateOne({ _id: groupId, orgId }, { $set: { name } }, { session });
      if (change.tags) await Group.updateOne({ _id: groupId, orgId }, { $set: { tags: change.tags } }, { session });
      await this.moveForms(orgId, change.formMoves ?? [], session);
      if (deviceIds) {
        await this.db.requireIds('Device', orgId, deviceIds, session);
        await Device.updateMany(
          { orgId, groupIds: groupId, _id: { $nin: deviceIds } },
          { $pull: { groupIds: groupId } },
          { session },
        );
        await Device.updateMany({ orgId, _id: { $in: deviceIds } }, { $addToSet: { groupIds: groupId } }, { session });
      }
      return this.withMembers({ ...doc, name: name ?? doc.name, tags: change.tags ?? doc.tags }, session);
    });
  }

  async delete(orgId: number, groupId: number, decide: (group: Group) => GroupDeletion): Promise<void> {
    const { Group, Device } = this.db.models;
    await this.db.transaction(async (session) => {
      // groups: by _id.
      const doc = await Group.findOne({ _id: groupId, orgId }).session(session).lean<GroupDoc>();
      if (!doc) throw groupNotFound(groupId);
      await this.moveForms(orgId, decide(await this.withMembers(doc, session)).formMoves, session);
      await Device.updateMany({ orgId, groupIds: groupId }, { $pull: { groupIds: groupId } }, { session });
      await Group.deleteOne({ _id: groupId, orgId }, { session });
    });
  }

  private async moveForms(orgId: number, moves: FormMove[], session: ClientSession): Promise<void> {
    for (const move of moves) {
      await this.db.requireIds('Form', orgId, move.formIds, session);
      await this.db.models.Form.updateMany(
        { orgId, _id: { $in: move.formIds } },
        { $set: { groupId: move.toGroupId, updatedAt: new Date(move.movedAt) } },
        { session },
      );
    }
  }

  /** One query after the other: operations of one transaction must not run concurrently. */
  private async withMembers(group: GroupDoc, session: Session): Promise<Group> {
    const { Form, Device } = this.db.models;
    // forms: { orgId, groupId }; devices: { orgId, groupIds } (below).
    const forms = await Form.find({ orgId: group.orgId, groupId: group._id }, { _id: 1 })
      .sort({ _id: 1 })
      .session(session)
      .lean<IdDoc[]>();
    const devices = await Device.find({ orgId: group.orgId, groupIds: group._id }, { _id: 1 })
      .sort({ _id: 1 })
      .session(session)
      .lean<IdDoc[]>();
    return groupFromDoc(
      group,
      forms.map((form) => form._id),
      devices.map((device) => device._id),
    );
  }
}

const groupFromDoc = (
  { _id, changeCount: _changeCount, ...fields }: GroupDoc,
  formIds: number[],
  deviceIds: number[],
  // Groups saved before tags existed have none.
): Group => ({ id: _id, ...fields, tags: fields.tags ?? [], formIds, deviceIds });
