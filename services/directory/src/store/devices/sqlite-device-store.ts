import { nextSqliteId, type SqliteQueries } from '@formcast/storage';
import { deviceNotFound } from '../../domain/errors';
import type { CustomAttributes, Device, DeviceChange, NewDevice } from '../../domain/records';
import { idSet, listsByKey } from '../id-lists';
import { definedFields } from './defined-fields';
import { readOne, selectIds } from '../sqlite-reads';
import { insertMembership, requireIds, requireOrganization } from '../sqlite-references';
import { writeUnique } from '../sqlite-unique';
import type { DeviceStore } from './device-store';

interface DeviceRow {
  id: number;
  org_id: number;
  identifier: string;
  owner: string;
  description: string;
  pending_approval: number;
  push_token: string | null;
  os_version: string | null;
  app_identifier: string | null;
  app_version: string | null;
  /** JSON object of names to text. */
  custom_attributes: string;
  created_at: string;
}

const deviceColumns =
  'id, org_id, identifier, owner, description, pending_approval, push_token, os_version, app_identifier, app_version, custom_attributes, created_at';

/** Devices on the directory's SQLite database (see SqliteDirectoryStore); memberships are rows of `group_devices`. */
export class SqliteDeviceStore implements DeviceStore {
  constructor(private readonly sql: SqliteQueries) {}

  async enroll(device: NewDevice): Promise<Device> {
    return this.sql.write(() => {
      const { secretHash: _secretHash, ...fields } = device;
      requireOrganization(this.sql, device.orgId);
      const groupIds = idSet(device.groupIds);
      requireIds(this.sql, 'Group', device.orgId, groupIds);
      const id = nextSqliteId(this.sql.db, 'devices');
      writeUnique(device, () =>
        this.sql.run(
          `INSERT INTO devices (id, org_id, identifier, owner, description, pending_approval, push_token, secret_hash,
                                os_version, app_identifier, app_version, custom_attributes, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          device.orgId,
          device.identifier,
          device.owner,
          device.description,
          device.pendingApproval ? 1 : 0,
          device.pushToken,
          device.secretHash,
          device.osVersion,
          device.appIdentifier,
          device.appVersion,
          JSON.stringify(device.customAttributes),
          device.createdAt,
        ),
      );
      for (const groupId of groupIds) insertMembership(this.sql, device.orgId, groupId, id);
      return { id, ...fields, groupIds };
    });
  }

  async list(orgId: number, filter: { approvedOnly?: boolean } = {}): Promise<Device[]> {
    return this.sql.read(() => {
      const rows = this.sql.all<DeviceRow>(
        `SELECT ${deviceColumns} FROM devices
         WHERE org_id = ? ${filter.approvedOnly ? 'AND pending_approval = 0' : ''} ORDER BY id`,
        orgId,
      );
      const groupIds = listsByKey(
        this.sql.all<{ key: number; value: number }>(
          `SELECT device_id AS key, group_id AS value FROM group_devices
           WHERE org_id = ? ORDER BY group_id`,
          orgId,
        ),
      );
      return rows.map((row) => toDevice(row, groupIds.get(row.id) ?? []));
    });
  }

  async get(orgId: number, deviceId: number): Promise<Device | null> {
    return readOne(this.sql, () => this.deviceRow(orgId, deviceId), this.withGroups);
  }

  async findByIdentifier(orgId: number, identifier: string): Promise<Device | null> {
    const sql = `SELECT ${deviceColumns} FROM devices WHERE org_id = ? AND identifier = ?`;
    return readOne(this.sql, () => this.sql.get<DeviceRow>(sql, orgId, identifier), this.withGroups);
  }

  async findBySecretHash(secretHash: string): Promise<Device | null> {
    const sql = `SELECT ${deviceColumns} FROM devices WHERE secret_hash = ?`;
    return readOne(this.sql, () => this.sql.get<DeviceRow>(sql, secretHash), this.withGroups);
  }

  async update(orgId: number, deviceId: number, change: DeviceChange): Promise<Device> {
    return this.sql.write(() => {
      const row = this.deviceRow(orgId, deviceId);
      if (!row) throw deviceNotFound(deviceId);
      const device = { ...this.withGroups(row), ...definedFields(change) };
      if (change.groupIds) {
        device.groupIds = idSet(change.groupIds);
        requireIds(this.sql, 'Group', orgId, device.groupIds);
      }
      this.sql.run(
        `UPDATE devices SET owner = ?, description = ?, pending_approval = ?, push_token = ?,
                            os_version = ?, app_identifier = ?, app_version = ?, custom_attributes = ?
         WHERE org_id = ? AND id = ?`,
        device.owner,
        device.description,
        device.pendingApproval ? 1 : 0,
        device.pushToken,
        device.osVersion,
        device.appIdentifier,
        device.appVersion,
        JSON.stringify(device.customAttributes),
        orgId,
        deviceId,
      );
      if (change.groupIds) {
        this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND device_id = ?', orgId, deviceId);
        for (const groupId of device.groupIds) insertMembership(this.sql, orgId, groupId, deviceId);
      }
      return device;
    });
  }

  async clearPushTokenIf(orgId: number, deviceId: number, pushToken: string): Promise<Device | null> {
    return this.sql.write(() => {
      const changes = this.sql.run(
        'UPDATE devices SET push_token = NULL WHERE org_id = ? AND id = ? AND push_token = ?',
        orgId,
        deviceId,
        pushToken,
      );
      const row = changes === 1 ? this.deviceRow(orgId, deviceId) : undefined;
      return row ? this.withGroups(row) : null;
    });
  }

  async delete(orgId: number, deviceId: number): Promise<Device> {
    return this.sql.write(() => {
      const row = this.deviceRow(orgId, deviceId);
      if (!row) throw deviceNotFound(deviceId);
      const device = this.withGroups(row);
      this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND device_id = ?', orgId, deviceId);
      this.sql.run('DELETE FROM devices WHERE org_id = ? AND id = ?', orgId, deviceId);
      return device;
    });
  }

  private deviceRow(orgId: number, deviceId: number): DeviceRow | undefined {
    return this.sql.get<DeviceRow>(`SELECT ${deviceColumns} FROM devices WHERE org_id = ? AND id = ?`, orgId, deviceId);
  }

  private readonly withGroups = (row: DeviceRow): Device => {
    const groupIds = selectIds(
      this.sql,
      'SELECT group_id AS id FROM group_devices WHERE org_id = ? AND device_id = ? ORDER BY group_id',
      row.org_id,
      row.id,
    );
    return toDevice(row, groupIds);
  };
}

const toDevice = (row: DeviceRow, groupIds: number[]): Device => ({
  id: row.id,
  orgId: row.org_id,
  identifier: row.identifier,
  owner: row.owner,
  description: row.description,
  pendingApproval: row.pending_approval === 1,
  pushToken: row.push_token,
  groupIds,
  osVersion: row.os_version,
  appIdentifier: row.app_identifier,
  appVersion: row.app_version,
  customAttributes: JSON.parse(row.custom_attributes) as CustomAttributes,
  createdAt: row.created_at,
});
