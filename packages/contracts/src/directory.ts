import { z } from 'zod';

/** Commands served by the directory service (routing key = the name). */
export const directoryCommands = {
  createOrganization: 'directory.organization.create',
  issueApiToken: 'directory.token.issue',
  listApiTokens: 'directory.token.list',
  revokeApiToken: 'directory.token.revoke',
  authenticateToken: 'directory.auth.token',
  authenticateDevice: 'directory.auth.device',

  listGroups: 'directory.group.list',
  createGroups: 'directory.group.create',
  updateGroup: 'directory.group.update',
  deleteGroup: 'directory.group.delete',

  listDevices: 'directory.device.list',
  getDevice: 'directory.device.get',
  updateDevice: 'directory.device.update',
  deleteDevice: 'directory.device.delete',
  approveDevice: 'directory.device.approve',
  enrollDevice: 'directory.device.enroll',
  findDevice: 'directory.device.find',
  setDevicePushToken: 'directory.device.set_push_token',
  clearStalePushToken: 'directory.device.clear_stale_push_token',
  resolveDevice: 'directory.device.resolve',
  resolveForm: 'directory.form.resolve',

  listForms: 'directory.form.list',
  createForm: 'directory.form.create',
  getForm: 'directory.form.get',
  updateForm: 'directory.form.update',
  deleteForm: 'directory.form.delete',
  moveForm: 'directory.form.move',
} as const;

const id = z.number().int().positive();
const text = (max: number) => z.string().max(max);

// ---- payloads ---------------------------------------------------------------------------

export const createOrganizationPayload = z.object({ name: text(200).trim().min(1) });
export const issueApiTokenPayload = z.object({ label: text(200).optional() });
export const revokeApiTokenPayload = z.object({ tokenId: id });
/** The gateway sends the token's SHA-256, never the token itself. */
export const authenticateTokenPayload = z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) });
export const authenticateDevicePayload = z.object({ secretHash: z.string().regex(/^[0-9a-f]{64}$/) });

export const createGroupsPayload = z.object({ names: z.array(text(255).trim().min(1)).min(1).max(1000) });
export const updateGroupPayload = z.object({
  groupId: id,
  name: text(255).trim().min(1).optional(),
  formIds: z.array(id).max(100000).optional(),
  deviceIds: z.array(id).max(100000).optional(),
});
export const groupIdPayload = z.object({ groupId: id });

export const listDevicesPayload = z.object({ approvedOnly: z.boolean().default(true) });
export const deviceIdPayload = z.object({ deviceId: id });
export const updateDevicePayload = z.object({
  deviceId: id,
  owner: text(255).optional(),
  description: text(2000).optional(),
  /** Group names; replaces the device's groups. */
  groups: z.array(text(255).trim().min(1)).max(1000).optional(),
});
export const enrollDevicePayload = z.object({
  enrollment_code: z.string().min(1).max(200),
  identifier: z.string().min(1).max(255),
  owner: text(255).default(''),
  description: text(2000).default(''),
  push_token: z.string().min(1).max(4096).nullable().default(null),
});

export const setDevicePushTokenPayload = z.object({
  deviceId: id,
  pushToken: z.string().min(1).max(4096).nullable(),
});
/** FCM said the token is gone: clear it, unless the device has registered a new one since. */
export const clearStalePushTokenPayload = z.object({ deviceId: id, pushToken: z.string().min(1).max(4096) });

/** A device path parameter: its identifier, or its numeric id. */
export const findDevicePayload = z.object({ ref: z.string().min(1).max(255) });
/** Services' lookups (not HTTP): a device by identifier or id, a template by namespace. */
export const resolveDevicePayload = z.object({ ref: z.string().min(1).max(255) });
export const resolveFormPayload = z.object({ namespace: z.string().min(1).max(1000) });

export const formIdPayload = z.object({ formId: id });
/** The definition is checked in depth by the directory's domain rules. */
export const createFormPayload = z.object({ definition: z.unknown() });
export const updateFormPayload = z.object({ formId: id, definition: z.unknown() });
export const moveFormPayload = z.object({ formId: id, group: text(255).trim().min(1) });

// ---- views: the API's JSON shapes -------------------------------------------------------

export interface OrganizationCreatedView {
  organization: { id: number; name: string; enrollment_code: string };
  api_token: string;
}

export interface ApiTokenView {
  id: number;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

export interface GroupView {
  id: number;
  name: string;
  form_ids: number[];
  device_ids: number[];
}

export interface CreateGroupsResult {
  created: GroupView[];
  /** Names that already existed, so nothing was created for them. */
  existing: string[];
}

export interface DeviceView {
  id: number;
  identifier: string;
  organization_id: number;
  owner: string;
  description: string;
  pending_approval: boolean;
  /** Group names, comma-separated, as the real product shows them. */
  groups: string;
  custom_attributes: Record<string, string>;
}

export interface EnrolledDeviceView {
  device: DeviceView;
  device_secret: string;
}

export interface AuthenticatedDevice {
  deviceId: number;
  orgId: number;
  identifier: string;
}

export interface FormListItemView {
  id: number;
  name: string;
  namespace: string;
  version: string;
  description: string;
  group: string;
}

export interface FormCreatedView {
  id: number;
  namespace: string;
  name: string;
}

export interface FormUpdatedView extends FormCreatedView {
  version: string;
}

/** A device as other services need it (internal: carries the push token). */
export interface ResolvedDevice {
  id: number;
  orgId: number;
  identifier: string;
  pendingApproval: boolean;
  pushToken: string | null;
}

/** A template as other services need it: its questions, to check pushed values against. */
export interface ResolvedForm {
  id: number;
  orgId: number;
  namespace: string;
  name: string;
  questions: unknown[];
}

/** Events the directory publishes after a change (best effort: consumers also expire caches). */
export const directoryEvents = {
  deviceChanged: 'directory.device.changed',
  formChanged: 'directory.form.changed',
  tokenRevoked: 'directory.token.revoked',
} as const;

/** A device was approved, updated, deleted or changed its push token. */
export const deviceChangedPayload = z.object({ orgId: id, deviceId: id, identifier: z.string() });
/** A template was replaced or deleted. */
export const formChangedPayload = z.object({ orgId: id, formId: id, namespace: z.string() });
/** An API token of the organization was revoked. */
export const tokenRevokedPayload = z.object({ orgId: id, tokenId: id });
