import type { ApiToken, Device, Form, Group, Organization } from '../domain/records';
import type { ApiTokenDoc, DeviceDoc, FormDoc, GroupDoc, OrganizationDoc } from './mongo-models';

/** The directory's MongoDB documents (as `.lean()` returns them) as records. */

export const organizationFromDoc = (doc: OrganizationDoc): Organization => ({
  id: doc._id,
  name: doc.name,
  enrollmentCode: doc.enrollmentCode,
  createdAt: doc.createdAt.toISOString(),
});

export const apiTokenFromDoc = (doc: ApiTokenDoc): ApiToken => ({
  id: doc._id,
  orgId: doc.orgId,
  label: doc.label,
  createdAt: doc.createdAt.toISOString(),
  revokedAt: doc.revokedAt ? doc.revokedAt.toISOString() : null,
});

export const groupFromDoc = (doc: GroupDoc, formIds: number[], deviceIds: number[]): Group => ({
  id: doc._id,
  orgId: doc.orgId,
  name: doc.name,
  isDefault: doc.isDefault,
  formIds,
  deviceIds,
});

export const deviceFromDoc = (doc: DeviceDoc): Device => ({
  id: doc._id,
  orgId: doc.orgId,
  identifier: doc.identifier,
  owner: doc.owner,
  description: doc.description,
  pendingApproval: doc.pendingApproval,
  pushToken: doc.pushToken ?? null,
  groupIds: [...doc.groupIds].sort(ascending),
  createdAt: doc.createdAt.toISOString(),
});

export const formFromDoc = (doc: FormDoc): Form => ({
  id: doc._id,
  orgId: doc.orgId,
  name: doc.name,
  namespace: doc.namespace,
  description: doc.description,
  revision: doc.revision,
  groupId: doc.groupId,
  definition: doc.definition,
  createdAt: doc.createdAt.toISOString(),
  updatedAt: doc.updatedAt.toISOString(),
});

export function ascending(a: number, b: number): number {
  return a - b;
}
