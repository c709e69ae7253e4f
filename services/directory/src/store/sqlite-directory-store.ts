import {
  migrateSqlite,
  nextSqliteId,
  openSqlite,
  type SqliteDatabase,
  SqliteQueries,
} from '@formcast/storage';
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
import { directoryMigrations } from './sqlite-migrations';
import {
  listsByKey,
  toApiToken,
  toDevice,
  toForm,
  toGroup,
  toOrganization,
  type ApiTokenRow,
  type DeviceRow,
  type FormRow,
  type GroupRow,
  type OrganizationRow,
} from './sqlite-directory-rows';

type OrgTable = 'groups' | 'devices' | 'forms';
type KeyValue = { key: number; value: number };

const defaultGroupName = 'Default';
const apiTokenColumns = 'id, org_id, label, created_at, revoked_at';
const deviceColumns =
  'id, org_id, identifier, owner, description, pending_approval, push_token, created_at';
/** Binds a list of ids as one JSON parameter: `id IN (SELECT value FROM json_each(?))`. */
const idList = (ids: number[]) => JSON.stringify(ids);

/**
 * The directory store on SQLite (embedded mode). better-sqlite3 is synchronous, so each
 * method runs to completion before another starts; writes still go through IMMEDIATE
 * transactions so that a second process on the same file can never interleave with them.
 */
export class SqliteDirectoryStore implements DirectoryStore {
  private readonly db: SqliteDatabase;
  private readonly sql: SqliteQueries;

  /**
   * Takes a database file (created with its folder if missing), `':memory:'`, or a database
   * already opened with `openSqlite`; brings its schema up to date. The store owns the
   * database from then on: `close()` closes it.
   */
  constructor(database: SqliteDatabase | string) {
    if (typeof database === 'string') {
      this.db = openSqlite(database, directoryMigrations);
    } else {
      migrateSqlite(database, directoryMigrations);
      this.db = database;
    }
    this.sql = new SqliteQueries(this.db);
  }

  // Organizations and API tokens -------------------------------------------------------

  async createOrganization(input: {
    name: string;
    enrollmentCode: string;
    tokenHash: string;
    tokenLabel: string;
  }): Promise<{ organization: Organization; token: ApiToken }> {
    return this.sql.write(() => {
      if (this.sql.get('SELECT 1 FROM organizations WHERE enrollment_code = ?', input.enrollmentCode)) {
        throw enrollmentCodeTaken();
      }
      const createdAt = now();
      const orgId = nextSqliteId(this.db, 'organizations');
      this.sql.run(
        'INSERT INTO organizations (id, name, enrollment_code, created_at) VALUES (?, ?, ?, ?)',
        orgId,
        input.name,
        input.enrollmentCode,
        createdAt,
      );
      this.sql.run(
        'INSERT INTO groups (id, org_id, name, is_default) VALUES (?, ?, ?, 1)',
        nextSqliteId(this.db, 'groups'),
        orgId,
        defaultGroupName,
      );
      const token = this.insertApiToken(orgId, input.tokenHash, input.tokenLabel, createdAt);
      const organization = { id: orgId, name: input.name, enrollmentCode: input.enrollmentCode, createdAt };
      return { organization, token };
    });
  }

  async getOrganization(orgId: number): Promise<Organization | null> {
    const row = this.sql.get<OrganizationRow>('SELECT * FROM organizations WHERE id = ?', orgId);
    return row ? toOrganization(row) : null;
  }

  async findOrganizationByEnrollmentCode(code: string): Promise<Organization | null> {
    const row = this.sql.get<OrganizationRow>('SELECT * FROM organizations WHERE enrollment_code = ?', code);
    return row ? toOrganization(row) : null;
  }

  async addApiToken(orgId: number, tokenHash: string, label: string): Promise<ApiToken> {
    return this.sql.write(() => {
      this.requireOrganization(orgId);
      return this.insertApiToken(orgId, tokenHash, label, now());
    });
  }

  async listApiTokens(orgId: number): Promise<ApiToken[]> {
    return this.sql.all<ApiTokenRow>(
      `SELECT ${apiTokenColumns} FROM api_tokens WHERE org_id = ? ORDER BY id`,
      orgId,
    ).map(toApiToken);
  }

  async revokeApiToken(orgId: number, tokenId: number): Promise<void> {
    this.sql.write(() => {
      if (!this.sql.get('SELECT 1 FROM api_tokens WHERE org_id = ? AND id = ?', orgId, tokenId)) {
        throw apiTokenNotFound(tokenId);
      }
      // Revoking twice keeps the first revocation time.
      this.sql.run(
        'UPDATE api_tokens SET revoked_at = ? WHERE org_id = ? AND id = ? AND revoked_at IS NULL',
        now(),
        orgId,
        tokenId,
      );
    });
  }

  async findOrgIdByTokenHash(tokenHash: string): Promise<number | null> {
    const row = this.sql.get<{ org_id: number }>(
      'SELECT org_id FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL',
      tokenHash,
    );
    return row?.org_id ?? null;
  }

  // Groups -----------------------------------------------------------------------------

  async listGroups(orgId: number): Promise<Group[]> {
    return this.sql.read(() => {
      const rows = this.sql.all<GroupRow>('SELECT * FROM groups WHERE org_id = ? ORDER BY id', orgId);
      const formIds = listsByKey(
        this.sql.all<KeyValue>('SELECT group_id AS key, id AS value FROM forms WHERE org_id = ? ORDER BY id', orgId),
      );
      const deviceIds = listsByKey(
        this.sql.all<KeyValue>(
          `SELECT group_id AS key, device_id AS value FROM group_devices
           WHERE org_id = ? ORDER BY device_id`,
          orgId,
        ),
      );
      return rows.map((row) => toGroup(row, formIds.get(row.id) ?? [], deviceIds.get(row.id) ?? []));
    });
  }

  async getGroup(orgId: number, groupId: number): Promise<Group | null> {
    return this.sql.read(() => {
      const row = this.groupRow(orgId, groupId);
      return row ? this.withMembers(row) : null;
    });
  }

  async findGroupByName(orgId: number, name: string): Promise<Group | null> {
    return this.sql.read(() => {
      const row = this.sql.get<GroupRow>('SELECT * FROM groups WHERE org_id = ? AND name = ?', orgId, name);
      return row ? this.withMembers(row) : null;
    });
  }

  async createGroups(orgId: number, names: string[]): Promise<Group[]> {
    return this.sql.write(() => {
      this.requireOrganization(orgId);
      return names.map((name) => {
        if (this.groupNamed(orgId, name)) throw groupNameTaken(name);
        const id = nextSqliteId(this.db, 'groups');
        this.sql.run('INSERT INTO groups (id, org_id, name, is_default) VALUES (?, ?, ?, 0)', id, orgId, name);
        return { id, orgId, name, isDefault: false, formIds: [], deviceIds: [] };
      });
    });
  }

  async updateGroup(
    orgId: number,
    groupId: number,
    patch: { name?: string; formIds?: number[]; deviceIds?: number[] },
  ): Promise<Group> {
    return this.sql.write(() => {
      const group = this.groupRow(orgId, groupId);
      if (!group) throw groupNotFound(groupId);

      if (patch.name !== undefined && patch.name !== group.name) {
        if (group.is_default === 1) throw defaultGroupNotRenamable();
        if (this.groupNamed(orgId, patch.name)) throw groupNameTaken(patch.name);
        this.sql.run('UPDATE groups SET name = ? WHERE org_id = ? AND id = ?', patch.name, orgId, groupId);
      }

      if (patch.formIds) {
        this.requireIds('forms', orgId, patch.formIds, 'Form');
        const movedAt = now();
        // Forms dropped from the group go home to Default (the Default group keeps them anyway).
        if (group.is_default === 0) {
          this.sql.run(
            `UPDATE forms SET group_id = ?, updated_at = ?
             WHERE org_id = ? AND group_id = ? AND id NOT IN (SELECT value FROM json_each(?))`,
            this.defaultGroupId(orgId),
            movedAt,
            orgId,
            groupId,
            idList(patch.formIds),
          );
        }
        this.sql.run(
          `UPDATE forms SET group_id = ?, updated_at = ?
           WHERE org_id = ? AND group_id != ? AND id IN (SELECT value FROM json_each(?))`,
          groupId,
          movedAt,
          orgId,
          groupId,
          idList(patch.formIds),
        );
      }

      if (patch.deviceIds) {
        this.requireIds('devices', orgId, patch.deviceIds, 'Device');
        this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND group_id = ?', orgId, groupId);
        for (const deviceId of new Set(patch.deviceIds)) {
          this.sql.run(
            'INSERT INTO group_devices (org_id, group_id, device_id) VALUES (?, ?, ?)',
            orgId,
            groupId,
            deviceId,
          );
        }
      }

      return this.withMembers(this.groupRow(orgId, groupId) ?? group);
    });
  }

  async deleteGroup(orgId: number, groupId: number): Promise<void> {
    this.sql.write(() => {
      const group = this.groupRow(orgId, groupId);
      if (!group) throw groupNotFound(groupId);
      if (group.is_default === 1) throw defaultGroupNotDeletable();
      this.sql.run(
        'UPDATE forms SET group_id = ?, updated_at = ? WHERE org_id = ? AND group_id = ?',
        this.defaultGroupId(orgId),
        now(),
        orgId,
        groupId,
      );
      this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND group_id = ?', orgId, groupId);
      this.sql.run('DELETE FROM groups WHERE org_id = ? AND id = ?', orgId, groupId);
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
    return this.sql.write(() => {
      this.requireOrganization(input.orgId);
      if (this.sql.get('SELECT 1 FROM devices WHERE identifier = ?', input.identifier)) {
        throw deviceIdentifierTaken(input.identifier);
      }
      if (this.sql.get('SELECT 1 FROM devices WHERE secret_hash = ?', input.secretHash)) {
        throw deviceSecretTaken();
      }
      const groupIds = [...new Set(input.groupIds ?? [])].sort(ascending);
      this.requireIds('groups', input.orgId, groupIds, 'Group');
      const id = nextSqliteId(this.db, 'devices');
      const createdAt = now();
      this.sql.run(
        `INSERT INTO devices (id, org_id, identifier, owner, description, pending_approval,
                              push_token, secret_hash, created_at)
         VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)`,
        id,
        input.orgId,
        input.identifier,
        input.owner,
        input.description,
        input.pushToken,
        input.secretHash,
        createdAt,
      );
      this.insertMemberships(input.orgId, id, groupIds);
      return {
        id,
        orgId: input.orgId,
        identifier: input.identifier,
        owner: input.owner,
        description: input.description,
        pendingApproval: true,
        pushToken: input.pushToken,
        groupIds,
        createdAt,
      };
    });
  }

  async listDevices(orgId: number, filter: { approvedOnly?: boolean } = {}): Promise<Device[]> {
    return this.sql.read(() => {
      const rows = this.sql.all<DeviceRow>(
        `SELECT ${deviceColumns} FROM devices
         WHERE org_id = ? ${filter.approvedOnly ? 'AND pending_approval = 0' : ''} ORDER BY id`,
        orgId,
      );
      const groupIds = listsByKey(
        this.sql.all<KeyValue>(
          `SELECT device_id AS key, group_id AS value FROM group_devices
           WHERE org_id = ? ORDER BY group_id`,
          orgId,
        ),
      );
      return rows.map((row) => toDevice(row, groupIds.get(row.id) ?? []));
    });
  }

  async getDevice(orgId: number, deviceId: number): Promise<Device | null> {
    return this.sql.read(() => {
      const row = this.deviceRow(orgId, deviceId);
      return row ? this.withGroups(row) : null;
    });
  }

  async findDeviceByIdentifier(orgId: number, identifier: string): Promise<Device | null> {
    return this.sql.read(() => {
      const row = this.sql.get<DeviceRow>(
        `SELECT ${deviceColumns} FROM devices WHERE org_id = ? AND identifier = ?`,
        orgId,
        identifier,
      );
      return row ? this.withGroups(row) : null;
    });
  }

  async findDeviceBySecretHash(secretHash: string): Promise<Device | null> {
    return this.sql.read(() => {
      const row = this.sql.get<DeviceRow>(`SELECT ${deviceColumns} FROM devices WHERE secret_hash = ?`, secretHash);
      return row ? this.withGroups(row) : null;
    });
  }

  async updateDevice(
    orgId: number,
    deviceId: number,
    patch: { owner?: string; description?: string; groupIds?: number[]; pushToken?: string | null },
  ): Promise<Device> {
    return this.sql.write(() => {
      const device = this.deviceRow(orgId, deviceId);
      if (!device) throw deviceNotFound(deviceId);
      if (patch.groupIds) this.requireIds('groups', orgId, patch.groupIds, 'Group');
      this.sql.run(
        'UPDATE devices SET owner = ?, description = ?, push_token = ? WHERE org_id = ? AND id = ?',
        patch.owner ?? device.owner,
        patch.description ?? device.description,
        patch.pushToken === undefined ? device.push_token : patch.pushToken,
        orgId,
        deviceId,
      );
      if (patch.groupIds) {
        this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND device_id = ?', orgId, deviceId);
        this.insertMemberships(orgId, deviceId, new Set(patch.groupIds));
      }
      return this.withGroups(this.deviceRow(orgId, deviceId) ?? device);
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
      const device = changes === 1 ? this.deviceRow(orgId, deviceId) : undefined;
      return device ? this.withGroups(device) : null;
    });
  }

  async approveDevice(orgId: number, deviceId: number): Promise<Device> {
    return this.sql.write(() => {
      const device = this.deviceRow(orgId, deviceId);
      if (!device) throw deviceNotFound(deviceId);
      this.sql.run('UPDATE devices SET pending_approval = 0 WHERE org_id = ? AND id = ?', orgId, deviceId);
      return this.withGroups({ ...device, pending_approval: 0 });
    });
  }

  async deleteDevice(orgId: number, deviceId: number): Promise<void> {
    this.sql.write(() => {
      if (!this.deviceRow(orgId, deviceId)) throw deviceNotFound(deviceId);
      this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND device_id = ?', orgId, deviceId);
      this.sql.run('DELETE FROM devices WHERE org_id = ? AND id = ?', orgId, deviceId);
    });
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
    return this.sql.write(() => {
      this.requireOrganization(input.orgId);
      let groupId: number;
      if (input.groupId === undefined) {
        groupId = this.defaultGroupId(input.orgId);
      } else {
        if (!this.groupRow(input.orgId, input.groupId)) throw groupNotFound(input.groupId);
        groupId = input.groupId;
      }
      if (this.formWithNamespace(input.orgId, input.namespace)) throw formNamespaceTaken(input.namespace);
      const id = nextSqliteId(this.db, 'forms');
      const createdAt = now();
      this.sql.run(
        `INSERT INTO forms (id, org_id, group_id, name, namespace, description, revision,
                            definition, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
        id,
        input.orgId,
        groupId,
        input.name,
        input.namespace,
        input.description,
        JSON.stringify(input.definition),
        createdAt,
        createdAt,
      );
      return this.requireForm(input.orgId, id);
    });
  }

  async listForms(orgId: number): Promise<Form[]> {
    return this.sql.all<FormRow>('SELECT * FROM forms WHERE org_id = ? ORDER BY id', orgId).map(toForm);
  }

  async getForm(orgId: number, formId: number): Promise<Form | null> {
    const row = this.sql.get<FormRow>('SELECT * FROM forms WHERE org_id = ? AND id = ?', orgId, formId);
    return row ? toForm(row) : null;
  }

  async findFormByNamespace(orgId: number, namespace: string): Promise<Form | null> {
    const row = this.formWithNamespace(orgId, namespace);
    return row ? toForm(row) : null;
  }

  async replaceFormDefinition(orgId: number, formId: number, definition: FormDefinition): Promise<Form> {
    return this.sql.write(() => {
      this.requireForm(orgId, formId);
      this.sql.run(
        `UPDATE forms SET definition = ?, name = ?, revision = revision + 1, updated_at = ?
         WHERE org_id = ? AND id = ?`,
        JSON.stringify(definition),
        definition.title,
        now(),
        orgId,
        formId,
      );
      return this.requireForm(orgId, formId);
    });
  }

  async moveForm(orgId: number, formId: number, groupId: number): Promise<Form> {
    return this.sql.write(() => {
      this.requireForm(orgId, formId);
      if (!this.groupRow(orgId, groupId)) throw groupNotFound(groupId);
      this.sql.run(
        'UPDATE forms SET group_id = ?, updated_at = ? WHERE org_id = ? AND id = ?',
        groupId,
        now(),
        orgId,
        formId,
      );
      return this.requireForm(orgId, formId);
    });
  }

  async deleteForm(orgId: number, formId: number): Promise<void> {
    this.sql.write(() => {
      this.requireForm(orgId, formId);
      this.sql.run('DELETE FROM forms WHERE org_id = ? AND id = ?', orgId, formId);
    });
  }

  async ping(): Promise<void> {
    this.sql.get('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  // Shared steps -----------------------------------------------------------------------

  private insertApiToken(orgId: number, tokenHash: string, label: string, createdAt: string): ApiToken {
    if (this.sql.get('SELECT 1 FROM api_tokens WHERE token_hash = ?', tokenHash)) throw apiTokenTaken();
    const id = nextSqliteId(this.db, 'api_tokens');
    this.sql.run(
      'INSERT INTO api_tokens (id, org_id, token_hash, label, created_at) VALUES (?, ?, ?, ?, ?)',
      id,
      orgId,
      tokenHash,
      label,
      createdAt,
    );
    return { id, orgId, label, createdAt, revokedAt: null };
  }

  private insertMemberships(orgId: number, deviceId: number, groupIds: Iterable<number>): void {
    for (const groupId of groupIds) {
      this.sql.run('INSERT INTO group_devices (org_id, group_id, device_id) VALUES (?, ?, ?)', orgId, groupId, deviceId);
    }
  }

  private requireOrganization(orgId: number): void {
    if (!this.sql.get('SELECT 1 FROM organizations WHERE id = ?', orgId)) throw organizationNotFound(orgId);
  }

  private groupRow(orgId: number, groupId: number): GroupRow | undefined {
    return this.sql.get<GroupRow>('SELECT * FROM groups WHERE org_id = ? AND id = ?', orgId, groupId);
  }

  private groupNamed(orgId: number, name: string): boolean {
    return this.sql.get('SELECT 1 FROM groups WHERE org_id = ? AND name = ?', orgId, name) !== undefined;
  }

  private defaultGroupId(orgId: number): number {
    const row = this.sql.get<{ id: number }>('SELECT id FROM groups WHERE org_id = ? AND is_default = 1', orgId);
    if (!row) throw new Error(`Organization ${orgId} has no Default group`);
    return row.id;
  }

  private withMembers(row: GroupRow): Group {
    const formIds = this.sql.all<{ id: number }>(
      'SELECT id FROM forms WHERE org_id = ? AND group_id = ? ORDER BY id',
      row.org_id,
      row.id,
    ).map((form) => form.id);
    const deviceIds = this.sql.all<{ device_id: number }>(
      'SELECT device_id FROM group_devices WHERE org_id = ? AND group_id = ? ORDER BY device_id',
      row.org_id,
      row.id,
    ).map((member) => member.device_id);
    return toGroup(row, formIds, deviceIds);
  }

  private deviceRow(orgId: number, deviceId: number): DeviceRow | undefined {
    return this.sql.get<DeviceRow>(`SELECT ${deviceColumns} FROM devices WHERE org_id = ? AND id = ?`, orgId, deviceId);
  }

  private withGroups(row: DeviceRow): Device {
    const groupIds = this.sql.all<{ group_id: number }>(
      'SELECT group_id FROM group_devices WHERE org_id = ? AND device_id = ? ORDER BY group_id',
      row.org_id,
      row.id,
    ).map((member) => member.group_id);
    return toDevice(row, groupIds);
  }

  private requireForm(orgId: number, formId: number): Form {
    const row = this.sql.get<FormRow>('SELECT * FROM forms WHERE org_id = ? AND id = ?', orgId, formId);
    if (!row) throw formNotFound(formId);
    return toForm(row);
  }

  private formWithNamespace(orgId: number, namespace: string): FormRow | undefined {
    return this.sql.get<FormRow>('SELECT * FROM forms WHERE org_id = ? AND namespace = ?', orgId, namespace);
  }

  /** Throws 'invalid' naming the ids that are not rows of this organization's `table`. */
  private requireIds(table: OrgTable, orgId: number, ids: number[], kind: 'Form' | 'Device' | 'Group'): void {
    const found = this.sql.all<{ id: number }>(
      `SELECT id FROM ${table} WHERE org_id = ? AND id IN (SELECT value FROM json_each(?))`,
      orgId,
      idList(ids),
    ).map((row) => row.id);
    const missing = missingIds(ids, found);
    if (missing.length > 0) throw unknownIds(kind, missing);
  }
}

function ascending(a: number, b: number): number {
  return a - b;
}

function now(): string {
  return new Date().toISOString();
}
