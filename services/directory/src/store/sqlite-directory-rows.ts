import type { ApiToken, Device, Form, FormDefinition, Group, Organization } from '../domain/records';

/** The directory's SQLite rows as better-sqlite3 returns them, and their records. */

export interface OrganizationRow {
  id: number;
  name: string;
  enrollment_code: string;
  created_at: string;
}

export interface ApiTokenRow {
  id: number;
  org_id: number;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

export interface GroupRow {
  id: number;
  org_id: number;
  name: string;
  is_default: number;
}

export interface DeviceRow {
  id: number;
  org_id: number;
  identifier: string;
  owner: string;
  description: string;
  pending_approval: number;
  push_token: string | null;
  created_at: string;
}

export interface FormRow {
  id: number;
  org_id: number;
  group_id: number;
  name: string;
  namespace: string;
  description: string;
  revision: number;
  definition: string;
  created_at: string;
  updated_at: string;
}

export const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  enrollmentCode: row.enrollment_code,
  createdAt: row.created_at,
});

export const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  orgId: row.org_id,
  label: row.label,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export const toGroup = (row: GroupRow, formIds: number[], deviceIds: number[]): Group => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  isDefault: row.is_default === 1,
  formIds,
  deviceIds,
});

export const toDevice = (row: DeviceRow, groupIds: number[]): Device => ({
  id: row.id,
  orgId: row.org_id,
  identifier: row.identifier,
  owner: row.owner,
  description: row.description,
  pendingApproval: row.pending_approval === 1,
  pushToken: row.push_token,
  groupIds,
  createdAt: row.created_at,
});

export const toForm = (row: FormRow): Form => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  namespace: row.namespace,
  description: row.description,
  revision: row.revision,
  groupId: row.group_id,
  definition: JSON.parse(row.definition) as FormDefinition,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Collects `{key, value}` pairs into a list per key, keeping their order. */
export function listsByKey(pairs: Array<{ key: number; value: number }>): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const { key, value } of pairs) {
    const list = lists.get(key);
    if (list) list.push(value);
    else lists.set(key, [value]);
  }
  return lists;
}
