import type { SqliteQueries } from '@formcast/storage';
import { groupNotFound, organizationNotFound, unknownIdsAmong } from '../domain/errors';
import { selectIds } from './sqlite-reads';

/**
 * What a row points at must be the organization's: the checks the SQLite parts of the
 * directory make inside their transactions, and the membership rows devices and groups share.
 */

/** Binds a list of ids as one JSON parameter: `id IN (SELECT value FROM json_each(?))`. */
export const idList = (ids: number[]) => JSON.stringify(ids);

export function requireOrganization(sql: SqliteQueries, orgId: number): void {
  if (!sql.get('SELECT 1 FROM organizations WHERE id = ?', orgId)) throw organizationNotFound(orgId);
}

export function requireGroup(sql: SqliteQueries, orgId: number, groupId: number): void {
  if (!sql.get('SELECT 1 FROM groups WHERE org_id = ? AND id = ?', orgId, groupId)) throw groupNotFound(groupId);
}

const tables = { Form: 'forms', Device: 'devices', Group: 'groups' } as const;

/** Throws 'invalid' naming the ids that are not this organization's forms/devices/groups. */
export function requireIds(sql: SqliteQueries, kind: keyof typeof tables, orgId: number, ids: number[]): void {
  const found = selectIds(
    sql,
    `SELECT id FROM ${tables[kind]} WHERE org_id = ? AND id IN (SELECT value FROM json_each(?))`,
    orgId,
    idList(ids),
  );
  const error = unknownIdsAmong(kind, ids, found);
  if (error) throw error;
}

export function insertMembership(sql: SqliteQueries, orgId: number, groupId: number, deviceId: number): void {
  sql.run('INSERT INTO group_devices (org_id, group_id, device_id) VALUES (?, ?, ?)', orgId, groupId, deviceId);
}
