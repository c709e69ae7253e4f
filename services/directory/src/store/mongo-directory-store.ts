import { AppError } from '@formcast/platform';
import { mongoCounterModel, nextMongoId } from '@formcast/storage';
import type { ClientSession, Connection } from 'mongoose';
import type { ApiToken, Device, Form, FormDefinition, Group, Organization } from '../domain/records';
import type { DirectoryStore } from './directory-store';
import {
  apiTokenNotFound,
  apiTokenTaken,
  defaultGroupNotDeletable,
  defaultGroupNotRenamable,
  deviceIdentifierTaken,
  deviceNotFound,
  deviceSecretTaken,
  enrollmentCodeTaken,
  formNamespaceTaken,
  formNotFound,
  groupNameTaken,
  groupNotFound,
  missingIds,
  organizationNotFound,
  unknownIds,
} from './directory-errors';
import { conflictFromDuplicateKey } from './mongo-duplicate-key';
import {
  apiTokenFromDoc,
  ascending,
  deviceFromDoc,
  formFromDoc,
  groupFromDoc,
  organizationFromDoc,
} from './mongo-directory-records';
import {
  directoryModels,
  type ApiTokenDoc,
  type DeviceDoc,
  type DirectoryModels,
  type FormDoc,
  type GroupDoc,
  type OrganizationDoc,
} from './mongo-models';

type Session = ClientSession | null;
type IdDoc = { _id: number };

const defaultGroupName = 'Default';

/**
 * The directory store on MongoDB (distributed mode). Changes spanning several documents run
 * in one transaction, which needs a replica set (a single-node one is enough).
 */
export class MongoDirectoryStore implements DirectoryStore {
  private readonly models: DirectoryModels;
  private readonly ready: Promise<void>;

  /**
   * Registers the directory's models on the connection (see `connectMongo`). The store owns
   * the connection from then on: `close()` closes it.
   */
  constructor(private readonly connection: Connection) {
    this.models = directoryModels(connection);
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

  // Organizations and API tokens -------------------------------------------------------

  async createOrganization(input: {
    name: string;
    enrollmentCode: string;
    tokenHash: string;
    tokenLabel: string;
  }): Promise<{ organization: Organization; token: ApiToken }> {
    const { Organization, Group, ApiToken } = this.models;
    return this.transaction(async (session) => {
      if (await Organization.exists({ enrollmentCode: input.enrollmentCode }).session(session)) {
        throw enrollmentCodeTaken();
      }
      if (await ApiToken.exists({ tokenHash: input.tokenHash }).session(session)) throw apiTokenTaken();
      const createdAt = new Date();
      const organization: OrganizationDoc = {
        _id: await nextMongoId(this.connection, 'organizations', session),
        name: input.name,
        enrollmentCode: input.enrollmentCode,
        createdAt,
      };
      const defaultGroup: GroupDoc = {
        _id: await nextMongoId(this.connection, 'groups', session),
        orgId: organization._id,
        name: defaultGroupName,
        isDefault: true,
        changeCount: 0,
      };
      const token: ApiTokenDoc = {
        _id: await nextMongoId(this.connection, 'api_tokens', session),
        orgId: organization._id,
        tokenHash: input.tokenHash,
        label: input.tokenLabel,
        createdAt,
        revokedAt: null,
      };
      await Organization.create([organization], { session });
      await Group.create([defaultGroup], { session });
      await ApiToken.create([token], { session });
      return { organization: organizationFromDoc(organization), token: apiTokenFromDoc(token) };
    });
  }

  async getOrganization(orgId: number): Promise<Organization | null> {
    await this.ready;
    const doc = await this.models.Organization.findOne({ _id: orgId }).lean<OrganizationDoc>();
    return doc ? organizationFromDoc(doc) : null;
  }

  async findOrganizationByEnrollmentCode(code: string): Promise<Organization | null> {
    await this.ready;
    const doc = await this.models.Organization.findOne({ enrollmentCode: code }).lean<OrganizationDoc>();
    return doc ? organizationFromDoc(doc) : null;
  }

  async addApiToken(orgId: number, tokenHash: string, label: string): Promise<ApiToken> {
    return this.write(async () => {
      await this.requireOrganization(orgId, null);
      if (await this.models.ApiToken.exists({ tokenHash })) throw apiTokenTaken();
      const token: ApiTokenDoc = {
        _id: await nextMongoId(this.connection, 'api_tokens'),
        orgId,
        tokenHash,
        label,
        createdAt: new Date(),
        revokedAt: null,
      };
      await this.models.ApiToken.create(token);
      return apiTokenFromDoc(token);
    });
  }

  async listApiTokens(orgId: number): Promise<ApiToken[]> {
    await this.ready;
    const docs = await this.models.ApiToken.find({ orgId }).sort({ _id: 1 }).lean<ApiTokenDoc[]>();
    return docs.map(apiTokenFromDoc);
  }

  async revokeApiToken(orgId: number, tokenId: number): Promise<void> {
    await this.ready;
    const { ApiToken } = this.models;
    // Revoking twice keeps the first revocation time.
    const result = await ApiToken.updateOne(
      { _id: tokenId, orgId, revokedAt: null },
      { $set: { revokedAt: new Date() } },
    );
    if (result.matchedCount === 0 && !(await ApiToken.exists({ _id: tokenId, orgId }))) {
      throw apiTokenNotFound(tokenId);
    }
  }

  async findOrgIdByTokenHash(tokenHash: string): Promise<number | null> {
    await this.ready;
    const doc = await this.models.ApiToken.findOne({ tokenHash, revokedAt: null }, { orgId: 1 }).lean<
      Pick<ApiTokenDoc, 'orgId'>
    >();
    return doc?.orgId ?? null;
  }

  // Groups -----------------------------------------------------------------------------

  async listGroups(orgId: number): Promise<Group[]> {
    await this.ready;
    const { Group, Form, Device } = this.models;
    const [groups, forms, devices] = await Promise.all([
      Group.find({ orgId }).sort({ _id: 1 }).lean<GroupDoc[]>(),
      Form.find({ orgId }, { groupId: 1 }).sort({ _id: 1 }).lean<Array<Pick<FormDoc, '_id' | 'groupId'>>>(),
      Device.find({ orgId }, { groupIds: 1 })
        .sort({ _id: 1 })
        .lean<Array<Pick<DeviceDoc, '_id' | 'groupIds'>>>(),
    ]);
    const formIds = new Map<number, number[]>();
    for (const form of forms) push(formIds, form.groupId, form._id);
    const deviceIds = new Map<number, number[]>();
    for (const device of devices) for (const groupId of device.groupIds) push(deviceIds, groupId, device._id);
    return groups.map((group) => groupFromDoc(group, formIds.get(group._id) ?? [], deviceIds.get(group._id) ?? []));
  }

  async getGroup(orgId: number, groupId: number): Promise<Group | null> {
    await this.ready;
    const doc = await this.models.Group.findOne({ _id: groupId, orgId }).lean<GroupDoc>();
    return doc ? this.withMembers(doc, null) : null;
  }

  async findGroupByName(orgId: number, name: string): Promise<Group | null> {
    await this.ready;
    const doc = await this.models.Group.findOne({ orgId, name }).lean<GroupDoc>();
    return doc ? this.withMembers(doc, null) : null;
  }

  async createGroups(orgId: number, names: string[]): Promise<Group[]> {
    const { Group } = this.models;
    return this.transaction(async (session) => {
      await this.requireOrganization(orgId, session);
      const created: GroupDoc[] = [];
      for (const name of names) {
        const takenHere = created.some((group) => group.name === name);
        if (takenHere || (await Group.exists({ orgId, name }).session(session))) throw groupNameTaken(name);
        created.push({
          _id: await nextMongoId(this.connection, 'groups', session),
          orgId,
          name,
          isDefault: false,
          changeCount: 0,
        });
      }
      if (created.length > 0) await Group.create(created, { session, ordered: true });
      return created.map((group) => groupFromDoc(group, [], []));
    });
  }

  async updateGroup(
    orgId: number,
    groupId: number,
    patch: { name?: string; formIds?: number[]; deviceIds?: number[] },
  ): Promise<Group> {
    const { Group, Form, Device } = this.models;
    return this.transaction(async (session) => {
      const group = await this.lockGroup(orgId, groupId, session);
      if (!group) throw groupNotFound(groupId);

      if (patch.name !== undefined && patch.name !== group.name) {
        if (group.isDefault) throw defaultGroupNotRenamable();
        if (await Group.exists({ orgId, name: patch.name }).session(session)) throw groupNameTaken(patch.name);
        await Group.updateOne({ _id: groupId, orgId }, { $set: { name: patch.name } }, { session });
      }

      if (patch.formIds) {
        const formIds = patch.formIds;
        await this.requireIds('Form', orgId, formIds, session);
        const updatedAt = new Date();
        if (!group.isDefault) {
          // Forms dropped from the group go home to Default (the Default group keeps them anyway).
          const defaultGroupId = await this.defaultGroupId(orgId, session);
          await Form.updateMany(
            { orgId, groupId, _id: { $nin: formIds } },
            { $set: { groupId: defaultGroupId, updatedAt } },
            { session },
          );
        }
        await Form.updateMany(
          { orgId, _id: { $in: formIds }, groupId: { $ne: groupId } },
          { $set: { groupId, updatedAt } },
          { session },
        );
      }

      if (patch.deviceIds) {
        const deviceIds = patch.deviceIds;
        await this.requireIds('Device', orgId, deviceIds, session);
        await Device.updateMany(
          { orgId, groupIds: groupId, _id: { $nin: deviceIds } },
          { $pull: { groupIds: groupId } },
          { session },
        );
        await Device.updateMany(
          { orgId, _id: { $in: deviceIds } },
          { $addToSet: { groupIds: groupId } },
          { session },
        );
      }

      const name = patch.name ?? group.name;
      return this.withMembers({ ...group, name }, session);
    });
  }

  async deleteGroup(orgId: number, groupId: number): Promise<void> {
    const { Group, Form, Device } = this.models;
    await this.transaction(async (session) => {
      const group = await Group.findOne({ _id: groupId, orgId }).session(session).lean<GroupDoc>();
      if (!group) throw groupNotFound(groupId);
      if (group.isDefault) throw defaultGroupNotDeletable();
      const defaultGroupId = await this.defaultGroupId(orgId, session);
      await Form.updateMany(
        { orgId, groupId },
        { $set: { groupId: defaultGroupId, updatedAt: new Date() } },
        { session },
      );
      await Device.updateMany({ orgId, groupIds: groupId }, { $pull: { groupIds: groupId } }, { session });
      await Group.deleteOne({ _id: groupId, orgId }, { session });
    });
  }

  // Devices ----------------------------------------------------------------------------

  async enrollDevice(input: {
    orgId: number;
    identifier: string;
    owner: string;
    description: string;
    pushToken: string | null;
    secretHash: string;
    groupIds?: number[];
  }): Promise<Device> {
    const { Device } = this.models;
    return this.transaction(async (session) => {
      await this.requireOrganization(input.orgId, session);
      if (await Device.exists({ identifier: input.identifier }).session(session)) {
        throw deviceIdentifierTaken(input.identifier);
      }
      if (await Device.exists({ secretHash: input.secretHash }).session(session)) throw deviceSecretTaken();
      const groupIds = [...new Set(input.groupIds ?? [])].sort(ascending);
      await this.requireIds('Group', input.orgId, groupIds, session);
      await this.lockGroups(input.orgId, groupIds, session);
      const device: DeviceDoc = {
        _id: await nextMongoId(this.connection, 'devices', session),
        orgId: input.orgId,
        identifier: input.identifier,
        owner: input.owner,
        description: input.description,
        pendingApproval: true,
        pushToken: input.pushToken,
        secretHash: input.secretHash,
        groupIds,
        createdAt: new Date(),
      };
      await Device.create([device], { session });
      return deviceFromDoc(device);
    });
  }

  async listDevices(orgId: number, filter: { approvedOnly?: boolean } = {}): Promise<Device[]> {
    await this.ready;
    const query = filter.approvedOnly ? { orgId, pendingApproval: false } : { orgId };
    const docs = await this.models.Device.find(query).sort({ _id: 1 }).lean<DeviceDoc[]>();
    return docs.map(deviceFromDoc);
  }

  async getDevice(orgId: number, deviceId: number): Promise<Device | null> {
    await this.ready;
    const doc = await this.models.Device.findOne({ _id: deviceId, orgId }).lean<DeviceDoc>();
    return doc ? deviceFromDoc(doc) : null;
  }

  async findDeviceByIdentifier(orgId: number, identifier: string): Promise<Device | null> {
    await this.ready;
    const doc = await this.models.Device.findOne({ orgId, identifier }).lean<DeviceDoc>();
    return doc ? deviceFromDoc(doc) : null;
  }

  async findDeviceBySecretHash(secretHash: string): Promise<Device | null> {
    await this.ready;
    const doc = await this.models.Device.findOne({ secretHash }).lean<DeviceDoc>();
    return doc ? deviceFromDoc(doc) : null;
  }

  async updateDevice(
    orgId: number,
    deviceId: number,
    patch: { owner?: string; description?: string; groupIds?: number[]; pushToken?: string | null },
  ): Promise<Device> {
    const { Device } = this.models;
    return this.transaction(async (session) => {
      if (!(await Device.exists({ _id: deviceId, orgId }).session(session))) throw deviceNotFound(deviceId);
      const changes: Partial<DeviceDoc> = {};
      if (patch.owner !== undefined) changes.owner = patch.owner;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.pushToken !== undefined) changes.pushToken = patch.pushToken;
      if (patch.groupIds) {
        await this.requireIds('Group', orgId, patch.groupIds, session);
        await this.lockGroups(orgId, patch.groupIds, session);
        changes.groupIds = [...new Set(patch.groupIds)].sort(ascending);
      }
      const doc =
        Object.keys(changes).length === 0
          ? await Device.findOne({ _id: deviceId, orgId }).session(session).lean<DeviceDoc>()
          : await Device.findOneAndUpdate(
              { _id: deviceId, orgId },
              { $set: changes },
              { session, returnDocument: 'after' },
            ).lean<DeviceDoc>();
      if (!doc) throw deviceNotFound(deviceId);
      return deviceFromDoc(doc);
    });
  }

  async clearPushTokenIf(orgId: number, deviceId: number, pushToken: string): Promise<Device | null> {
    await this.ready;
    const doc = await this.models.Device.findOneAndUpdate(
      { _id: deviceId, orgId, pushToken },
      { $set: { pushToken: null } },
      { returnDocument: 'after' },
    ).lean<DeviceDoc>();
    return doc ? deviceFromDoc(doc) : null;
  }

  async approveDevice(orgId: number, deviceId: number): Promise<Device> {
    await this.ready;
    const doc = await this.models.Device.findOneAndUpdate(
      { _id: deviceId, orgId },
      { $set: { pendingApproval: false } },
      { returnDocument: 'after' },
    ).lean<DeviceDoc>();
    if (!doc) throw deviceNotFound(deviceId);
    return deviceFromDoc(doc);
  }

  /** Its memberships live on the device document, so they end with it. */
  async deleteDevice(orgId: number, deviceId: number): Promise<void> {
    await this.ready;
    const result = await this.models.Device.deleteOne({ _id: deviceId, orgId });
    if (result.deletedCount === 0) throw deviceNotFound(deviceId);
  }

  // Forms ------------------------------------------------------------------------------

  async createForm(input: {
    orgId: number;
    name: string;
    namespace: string;
    description: string;
    definition: FormDefinition;
    groupId?: number;
  }): Promise<Form> {
    const { Form } = this.models;
    return this.transaction(async (session) => {
      await this.requireOrganization(input.orgId, session);
      let groupId: number;
      if (input.groupId === undefined) {
        groupId = await this.defaultGroupId(input.orgId, session);
      } else {
        if (!(await this.lockGroup(input.orgId, input.groupId, session))) throw groupNotFound(input.groupId);
        groupId = input.groupId;
      }
      if (await Form.exists({ orgId: input.orgId, namespace: input.namespace }).session(session)) {
        throw formNamespaceTaken(input.namespace);
      }
      const createdAt = new Date();
      const form: FormDoc = {
        _id: await nextMongoId(this.connection, 'forms', session),
        orgId: input.orgId,
        groupId,
        name: input.name,
        namespace: input.namespace,
        description: input.description,
        revision: 1,
        definition: input.definition,
        createdAt,
        updatedAt: createdAt,
      };
      await Form.create([form], { session });
      return formFromDoc(form);
    });
  }

  async listForms(orgId: number): Promise<Form[]> {
    await this.ready;
    const docs = await this.models.Form.find({ orgId }).sort({ _id: 1 }).lean<FormDoc[]>();
    return docs.map(formFromDoc);
  }

  async getForm(orgId: number, formId: number): Promise<Form | null> {
    await this.ready;
    const doc = await this.models.Form.findOne({ _id: formId, orgId }).lean<FormDoc>();
    return doc ? formFromDoc(doc) : null;
  }

  async findFormByNamespace(orgId: number, namespace: string): Promise<Form | null> {
    await this.ready;
    const doc = await this.models.Form.findOne({ orgId, namespace }).lean<FormDoc>();
    return doc ? formFromDoc(doc) : null;
  }

  async replaceFormDefinition(orgId: number, formId: number, definition: FormDefinition): Promise<Form> {
    await this.ready;
    const doc = await this.models.Form.findOneAndUpdate(
      { _id: formId, orgId },
      { $set: { definition, name: definition.title, updatedAt: new Date() }, $inc: { revision: 1 } },
      { returnDocument: 'after' },
    ).lean<FormDoc>();
    if (!doc) throw formNotFound(formId);
    return formFromDoc(doc);
  }

  async moveForm(orgId: number, formId: number, groupId: number): Promise<Form> {
    const { Form } = this.models;
    return this.transaction(async (session) => {
      if (!(await Form.exists({ _id: formId, orgId }).session(session))) throw formNotFound(formId);
      if (!(await this.lockGroup(orgId, groupId, session))) throw groupNotFound(groupId);
      const doc = await Form.findOneAndUpdate(
        { _id: formId, orgId },
        { $set: { groupId, updatedAt: new Date() } },
        { session, returnDocument: 'after' },
      ).lean<FormDoc>();
      if (!doc) throw formNotFound(formId);
      return formFromDoc(doc);
    });
  }

  async deleteForm(orgId: number, formId: number): Promise<void> {
    await this.ready;
    const result = await this.models.Form.deleteOne({ _id: formId, orgId });
    if (result.deletedCount === 0) throw formNotFound(formId);
  }

  async ping(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', 'The directory database is not connected');
    await db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  // Shared steps -----------------------------------------------------------------------

  private async requireOrganization(orgId: number, session: Session): Promise<void> {
    if (!(await this.models.Organization.exists({ _id: orgId }).session(session))) {
      throw organizationNotFound(orgId);
    }
  }

  private async defaultGroupId(orgId: number, session: Session): Promise<number> {
    const group = await this.models.Group.findOne({ orgId, isDefault: true }, { _id: 1 })
      .session(session)
      .lean<IdDoc>();
    if (!group) throw new Error(`Organization ${orgId} has no Default group`);
    return group._id;
  }

  /**
   * The group, written to so that a concurrent deleteGroup conflicts with this transaction
   * (see GroupDoc.changeCount). Default is never deleted, so it is left alone: it would
   * otherwise be a write hot spot for every enrollment and form creation.
   */
  private async lockGroup(orgId: number, groupId: number, session: ClientSession): Promise<GroupDoc | null> {
    const { Group } = this.models;
    const group = await Group.findOne({ _id: groupId, orgId }).session(session).lean<GroupDoc>();
    if (group && !group.isDefault) {
      await Group.updateOne({ _id: groupId, orgId }, { $inc: { changeCount: 1 } }, { session });
    }
    return group;
  }

  private async lockGroups(orgId: number, groupIds: number[], session: ClientSession): Promise<void> {
    if (groupIds.length === 0) return;
    await this.models.Group.updateMany(
      { orgId, _id: { $in: groupIds }, isDefault: false },
      { $inc: { changeCount: 1 } },
      { session },
    );
  }

  /** One query after the other: operations of one transaction must not run concurrently. */
  private async withMembers(group: GroupDoc, session: Session): Promise<Group> {
    const { Form, Device } = this.models;
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

  /** Throws 'invalid' naming the ids that are not this organization's forms/devices/groups. */
  private async requireIds(
    kind: 'Form' | 'Device' | 'Group',
    orgId: number,
    ids: number[],
    session: Session,
  ): Promise<void> {
    // The three models answer this query alike; one model type spares TypeScript merging
    // their overloads into a union it cannot call.
    const model = this.models[kind] as unknown as DirectoryModels['Form'];
    const found = await model
      .find({ orgId, _id: { $in: ids } }, { _id: 1 })
      .session(session)
      .lean<IdDoc[]>();
    const missing = missingIds(
      ids,
      found.map((doc) => doc._id),
    );
    if (missing.length > 0) throw unknownIds(kind, missing);
  }

  // Plumbing ---------------------------------------------------------------------------

  /** Several documents changed together, or not at all. */
  private async transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T> {
    return this.write(() => this.connection.transaction(change));
  }

  /** Waits for the collections, and turns a unique-index violation into its conflict error. */
  private async write<T>(change: () => Promise<T>): Promise<T> {
    await this.ready;
    try {
      return await change();
    } catch (error) {
      throw conflictFromDuplicateKey(error) ?? error;
    }
  }
}

function push(lists: Map<number, number[]>, key: number, value: number): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
