import { nextSqliteId, type SqliteQueries } from '@formcast/storage';
import { groupNotFound, organizationNotFound } from '../../domain/errors';
import type { FormMove, Group, GroupChange, GroupDeletion, NewGroup } from '../../domain/records';
import { idSet, listsByKey } from '../id-lists';
import { appliedIds, recordApplied } from '../sqlite-applied-commands';
import { readOne, selectIds } from '../sqlite-reads';
import { idList, insertMembership, requireIds, requireOrganization } from '../sqlite-references';
import { writeUnique } from '../sqlite-unique';
import type { GroupStore } from './group-store';

interface GroupRow {
  id: number;
  org_id: number;
  name: string;
  is_default: number;
  tags: string;
}

type KeyValue = { key: number; value: number };

/** Groups on the directory's SQLite database (see SqliteDirectoryStore). */
export class SqliteGroupStore implements GroupStore {
  constructor(private readonly sql: SqliteQueries) {}

  async list(orgId: number): Promise<Group[]> {
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

  async names(orgId: number): Promise<Map<number, string>> {
    const rows = this.sql.all<{ id: number; name: string }>('SELECT id, name FROM groups WHERE org_id = ? ORDER BY id', orgId);
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async get(orgId: number, groupId: number): Promise<Group | null> {
    return readOne(this.sql, () => this.groupRow(orgId, groupId), this.withMembers);
  }

  async findByName(orgId: number, name: string): Promise<Group | null> {
    const sql = 'SELECT * FROM groups WHERE org_id = ? AND name = ?';
    return readOne(this.sql, () => this.sql.get<GroupRow>(sql, orgId, name), this.withMembers);
  }

  async defaultGroupId(orgId: number): Promise<number> {
    const row = this.sql.get<{ id: number }>('SELECT id FROM groups WHERE org_id = ? AND is_default = 1', orgId);
    if (!row) throw organizationNotFound(orgId);
    return row.id;
  }

  async create(orgId: number, names: string[], commandId: string): Promise<Group[]> {
    return this.sql.write(() => {
      const applied = appliedIds(this.sql, orgId, commandId);
      if (applied) return this.groupsWithIds(orgId, applied);
      if (names.length === 0) return [];
      requireOrganization(this.sql, orgId);
      const created = names.map((name) => insertGroup(this.sql, orgId, { name, isDefault: false }));
      recordApplied(
        this.sql,
        orgId,
        commandId,
        created.map((group) => group.id),
      );
      return created;
    });
  }

  async update(orgId: number, groupId: number, decide: (group: Group) => GroupChange): Promise<Group> {
    return this.sql.write(() => {
      const row = this.groupRow(orgId, groupId);
      if (!row) throw groupNotFound(groupId);
      const change = decide(this.withMembers(row));
      const { name } = change;
      if (name !== undefined) {
        writeUnique({ name }, () =>
          this.sql.run('UPDATE groups SET name = ? WHERE org_id = ? AND id = ?', name, orgId, groupId),
        );
      }
      if (change.tags) this.sql.run('UPDATE groups SET tags = ? WHERE org_id = ? AND id = ?', JSON.stringify(change.tags), orgId, groupId);
      this.moveForms(orgId, change.formMoves ?? []);
      if (change.deviceIds) {
        requireIds(this.sql, 'Device', orgId, change.deviceIds);
        this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND group_id = ?', orgId, groupId);
        for (const deviceId of idSet(change.deviceIds)) insertMembership(this.sql, orgId, groupId, deviceId);
      }
      return this.withMembers({ ...row, name: name ?? row.name, tags: change.tags ? JSON.stringify(change.tags) : row.tags });
    });
  }

  async delete(orgId: number, groupId: number, decide: (group: Group) => GroupDeletion): Promise<void> {
    this.sql.write(() => {
      const row = this.groupRow(orgId, groupId);
      if (!row) throw groupNotFound(groupId);
      this.moveForms(orgId, decide(this.withMembers(row)).formMoves);
      this.sql.run('DELETE FROM group_devices WHERE org_id = ? AND group_id = ?', orgId, groupId);
      this.sql.run('DELETE FROM groups WHERE org_id = ? AND id = ?', orgId, groupId);
    });
  }

  private moveForms(orgId: number, moves: FormMove[]): void {
    for (const move of moves) {
      requireIds(this.sql, 'Form', orgId, move.formIds);
      this.sql.run(
        `UPDATE forms SET group_id = ?, updated_at = ?
         WHERE org_id = ? AND id IN (SELECT value FROM json_each(?))`,
        move.toGroupId,
        move.movedAt,
        orgId,
        idList(move.formIds),
      );
    }
  }

  /** The groups with these ids still there, in the order given. */
  private groupsWithIds(orgId: number, groupIds: number[]): Group[] {
    return groupIds.flatMap((groupId) => {
      const row = this.groupRow(orgId, groupId);
      return row ? [this.withMembers(row)] : [];
    });
  }

  private groupRow(orgId: number, groupId: number): GroupRow | undefined {
    return this.sql.get<GroupRow>('SELECT * FROM groups WHERE org_id = ? AND id = ?', orgId, groupId);
  }

  private readonly withMembers = (row: GroupRow): Group => {
    const formIds = selectIds(this.sql, 'SELECT id FROM forms WHERE org_id = ? AND group_id = ? ORDER BY id', row.org_id, row.id);
    const deviceIds = selectIds(
      this.sql,
      'SELECT device_id AS id FROM group_devices WHERE org_id = ? AND group_id = ? ORDER BY device_id',
      row.org_id,
      row.id,
    );
    return toGroup(row, formIds, deviceIds);
  };
}

/** Inserts a group without members (in the caller's transaction); also how an organization gets its Default group. */
export function insertGroup(sql: SqliteQueries, orgId: number, group: NewGroup): Group {
  const id = nextSqliteId(sql.db, 'groups');
  writeUnique(group, () =>
    sql.run('INSERT INTO groups (id, org_id, name, is_default) VALUES (?, ?, ?, ?)', id, orgId, group.name, group.isDefault ? 1 : 0),
  );
  return { id, orgId, ...group, formIds: [], deviceIds: [], tags: [] };
}

const toGroup = (row: GroupRow, formIds: number[], deviceIds: number[]): Group => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  isDefault: row.is_default === 1,
  formIds,
  deviceIds,
  tags: JSON.parse(row.tags) as string[],
});
