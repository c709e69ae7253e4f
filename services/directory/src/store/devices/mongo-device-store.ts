import { deviceNotFound } from '../../domain/errors';
import type { CustomAttributes, Device, DeviceChange, NewDevice } from '../../domain/records';
import { idSet } from '../id-lists';
import type { MongoDirectoryDb } from '../mongo-directory-db';
import type { CustomAttributeDoc, DeviceDoc } from '../mongo-models';
import { definedFields } from './defined-fields';
import type { DeviceStore } from './device-store';

/**
 * Devices on the directory's MongoDB database (see MongoDirectoryStore). A device's groups
 * are listed on its document, so its memberships end with it.
 */
export class MongoDeviceStore implements DeviceStore {
  constructor(private readonly db: MongoDirectoryDb) {}

  async enroll(device: NewDevice): Promise<Device> {
    const { Device } = this.db.models;
    return this.db.transaction(async (session) => {
      await this.db.requireOrganization(device.orgId, session);
      const groupIds = idSet(device.groupIds);
      await this.db.requireIds('Group', device.orgId, groupIds, session);
      await this.db.lockGroups(device.orgId, groupIds, session);
      const doc: DeviceDoc = {
        _id: await this.db.nextId('devices', session),
        ...device,
        groupIds,
        customAttributes: customAttributeDocs(device.customAttributes),
        createdAt: new Date(device.createdAt),
      };
      await Device.create([doc], { session });
      return deviceFromDoc(doc);
    });
  }

  list(orgId: number, filter: { approvedOnly?: boolean } = {}): Promise<Device[]> {
    const query = filter.approvedOnly ? { orgId, pendingApproval: false } : { orgId };
    // devices: { orgId, _id }.
    return this.db.all(this.db.models.Device.find(query).sort({ _id: 1 }).lean<DeviceDoc[]>(), deviceFromDoc);
  }

  get(orgId: number, deviceId: number): Promise<Device | null> {
    // devices: by _id.
    return this.db.one(this.db.models.Device.findOne({ _id: deviceId, orgId }).lean<DeviceDoc>(), deviceFromDoc);
  }

  findByIdentifier(orgId: number, identifier: string): Promise<Device | null> {
    // devices: the unique { orgId, identifier }.
    return this.db.one(this.db.models.Device.findOne({ orgId, identifier }).lean<DeviceDoc>(), deviceFromDoc);
  }

  findBySecretHash(secretHash: string): Promise<Device | null> {
    // devices: the unique { secretHash }.
    return this.db.one(this.db.models.Device.findOne({ secretHash }).lean<DeviceDoc>(), deviceFromDoc);
  }

  async update(orgId: number, deviceId: number, change: DeviceChange): Promise<Device> {
    const { Device } = this.db.models;
    return this.db.transaction(async (session) => {
      // devices: by _id.
      if (!(await Device.exists({ _id: deviceId, orgId }).session(session))) throw deviceNotFound(deviceId);
      const { customAttributes, ...fields } = definedFields(change);
      const changes: Partial<DeviceDoc> = { ...fields };
      if (customAttributes) changes.customAttributes = customAttributeDocs(customAttributes);
      if (changes.groupIds) {
        changes.groupIds = idSet(changes.groupIds);
        await this.db.requireIds('Group', orgId, changes.groupIds, session);
        await this.db.lockGroups(orgId, changes.groupIds, session);
      }
      const doc =
        Object.keys(changes).length === 0
          // devices: by _id.
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
    await this.db.ready;
    // devices: by _id.
    const doc = await this.db.models.Device.findOneAndUpdate(
      { _id: deviceId, orgId, pushToken },
      { $set: { pushToken: null } },
      { returnDocument: 'after' },
    ).lean<DeviceDoc>();
    return doc ? deviceFromDoc(doc) : null;
  }

  async delete(orgId: number, deviceId: number): Promise<Device> {
    await this.db.ready;
    // devices: by _id.
    const doc = await this.db.models.Device.findOneAndDelete({ _id: deviceId, orgId }).lean<DeviceDoc>();
    if (!doc) throw deviceNotFound(deviceId);
    return deviceFromDoc(doc);
  }
}

const customAttributeDocs = (attributes: CustomAttributes): CustomAttributeDoc[] =>
  Object.entries(attributes).map(([key, value]) => ({ key, value }));

/** Older documents lack the versions and the attributes: null and none. */
const deviceFromDoc = ({
  _id,
  secretHash: _secretHash,
  pushToken,
  groupIds,
  osVersion,
  appIdentifier,
  appVersion,
  customAttributes,
  createdAt,
  ...fields
}: DeviceDoc): Device => ({
  id: _id,
  ...fields,
  pushToken: pushToken ?? null,
  groupIds: idSet(groupIds),
  osVersion: osVersion ?? null,
  appIdentifier: appIdentifier ?? null,
  appVersion: appVersion ?? null,
  customAttributes: Object.fromEntries((customAttributes ?? []).map(({ key, value }) => [key, value])),
  createdAt: createdAt.toISOString(),
});
