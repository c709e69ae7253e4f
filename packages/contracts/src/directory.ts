import { z } from 'zod';

/** Commands served by the directory service (routing key = the name). */
export const directoryCommands = {
  createOrganization: 'directory.organization.create',
  /** Every organization (administration). */
  listOrganizations: 'directory.organization.list',
  rotateEnrollmentCode: 'directory.organization.rotate_enrollment_code',
  /** The calling organization's id and names (the performance metric report's first columns). */
  getOrganization: 'directory.organization.get',
  issueApiToken: 'directory.token.issue',
  listApiTokens: 'directory.token.list',
  revokeApiToken: 'directory.token.revoke',
  authenticateToken: 'directory.auth.token',
  authenticateDevice: 'directory.auth.device',

  listGroups: 'directory.group.list',
  /** One group by id: not_found unless it is the organization's (the gateway's path check, before a body is read). */
  getGroup: 'directory.group.get',
  createGroups: 'directory.group.create',
  updateGroup: 'directory.group.update',
  deleteGroup: 'directory.group.delete',

  listDevices: 'directory.device.list',
  getDevice: 'directory.device.get',
  updateDevice: 'directory.device.update',
  deleteDevice: 'directory.device.delete',
  approveDevice: 'directory.device.approve',
  enrollDevice: 'directory.device.enroll',
  /** The device's own report of its OS and app versions. */
  reportDeviceVersions: 'directory.device.report_versions',
  findDevice: 'directory.device.find',
  setDevicePushToken: 'directory.device.set_push_token',
  clearStalePushToken: 'directory.device.clear_stale_push_token',
  resolveDevice: 'directory.device.resolve',
  resolveForm: 'directory.form.resolve',

  listForms: 'directory.form.list',
  createForm: 'directory.form.create',
  getForm: 'directory.form.get',
  lockForm: 'directory.form.lock',
  updateForm: 'directory.form.update',
  deleteForm: 'directory.form.delete',
  moveForm: 'directory.form.move',
} as const;

const id = z.number().int().positive();
const text = (max: number) => z.string().max(max);

// ---- payloads ---------------------------------------------------------------------------

export const createOrganizationPayload = z.object({ name: text(200).trim().min(1) });
export const listOrganizationsPayload = z.object({});
/** The organization is the envelope's. */
export const rotateEnrollmentCodePayload = z.object({});
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
  /** The group's tags from now on (group.md); each once, in the order given. */
  tags: z.array(text(255).trim().min(1)).max(100, 'a group may have at most 100 tags').optional(),
});
export const groupIdPayload = z.object({ groupId: id });

/**
 * Which generation's shape a device command answers in: `v1` is DeviceView (the first
 * generation's, and the default), `v2` is DeviceV2View.
 */
export const deviceViewGeneration = z.enum(['v1', 'v2']).default('v1');
export type DeviceViewGeneration = z.infer<typeof deviceViewGeneration>;

/** The author listings' pages (`items` per page, `page` from 1): every device when neither is given. */
export const authorsMaxItems = 1000;
/** Groups v2's list (group.md): `filter` (part of the name, any case), a page (`items`, `page`): every group when none is given. */
export const listGroupsPayload = z.object({
  filter: z.string().max(255).optional(),
  page: z.number().int().min(1).optional(),
  items: z.number().int().min(1).max(1000, 'must be at most 1000').optional(),
  /** group.md's `tags[]`: groups having any of these tags. */
  tags: z.array(z.string().max(255)).max(100).optional(),
});
export const getGroupPayload = z.object({ groupId: id });
export const listDevicesPayload = z.object({
  approvedOnly: z.boolean().default(true),
  view: deviceViewGeneration,
  page: z.number().int().min(1).optional(),
  items: z.number().int().min(1).max(authorsMaxItems, `must be at most ${authorsMaxItems}`).optional(),
});
export const deviceIdPayload = z.object({ deviceId: id });
/** get and approve: a device id and the shape of the answer. */
export const deviceViewPayload = z.object({ deviceId: id, view: deviceViewGeneration });
export const updateDevicePayload = z.object({
  deviceId: id,
  owner: text(255).optional(),
  description: text(2000).optional(),
  /** Group names; replaces the device's groups. */
  groups: z.array(text(255).trim().min(1)).max(1000).optional(),
  /** Name → text; replaces the device's custom attributes. Checked by the directory's domain rules. */
  custom_attributes: z.unknown().optional(),
  view: deviceViewGeneration,
});

/** What a device reports of itself, at enrollment or later (`reportDeviceVersions`). */
const deviceVersionFields = {
  os_version: text(255).optional(),
  app_identifier: text(255).optional(),
  app_version: text(255).optional(),
};
export const enrollDevicePayload = z.object({
  enrollment_code: z.string().min(1).max(200),
  identifier: z.string().min(1).max(255),
  owner: text(255).default(''),
  description: text(2000).default(''),
  push_token: z.string().min(1).max(4096).nullable().default(null),
  ...deviceVersionFields,
});
/** The device is the authenticated one (its secret), never a field of the body. */
export const reportDeviceVersionsPayload = z.object({ deviceId: id, ...deviceVersionFields });

export const setDevicePushTokenPayload = z.object({
  deviceId: id,
  pushToken: z.string().min(1).max(4096).nullable(),
});
/** FCM said the token is gone: clear it, unless the device has registered a new one since. */
export const clearStalePushTokenPayload = z.object({ deviceId: id, pushToken: z.string().min(1).max(4096) });

/**
 * A device path parameter: its identifier, or its numeric id. `includePushTokenPresent` adds
 * `push_token_present` to the answer (DeviceWithPushTokenPresenceView): whether the device has
 * a push token, never the token.
 */
export const findDevicePayload = z.object({
  ref: z.string().min(1).max(255),
  includePushTokenPresent: z.boolean().default(false),
});
/** Services' lookups (not HTTP): a device by identifier or id, a template by namespace or by id. */
export const resolveDevicePayload = z.object({ ref: z.string().min(1).max(255) });
export const resolveFormPayload = z.union([z.object({ namespace: z.string().min(1).max(1000) }), z.object({ formId: id })]);

export const formIdPayload = z.object({ formId: id });
/** The definition, optionally of one version (`"1.02"`, or the revision `3`): the current one or one it replaced. */
export const getFormPayload = z.object({ formId: id, version: z.string().min(1).max(20).optional() });
/** The definition is checked in depth by the directory's domain rules. */
export const createFormPayload = z.object({ definition: z.unknown() });
export const updateFormPayload = z.object({ formId: id, definition: z.unknown() });
/** Lock (`locked: true`) or unlock a form. */
export const lockFormPayload = z.object({ formId: id, locked: z.boolean() });
export const moveFormPayload = z.object({ formId: id, group: text(255).trim().min(1) });

// ---- views: the API's JSON shapes -------------------------------------------------------

/** The only time the enrollment code and the API token are shown: only their hashes are kept. */
export interface OrganizationCreatedView {
  organization: { id: number; name: string; enrollment_code: string };
  api_token: string;
}

/** An organization as the admin API lists it (`GET /admin/organizations`). */
export interface OrganizationView {
  id: number;
  name: string;
  created_at: string;
}

/** A new enrollment code, shown this once; the one before no longer enrolls. */
export interface EnrollmentCodeView {
  organization_id: number;
  enrollment_code: string;
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
  /** group.md (groups v2): the names of its tags. */
  tags: string[];
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

/** What `findDevice` answers when asked `includePushTokenPresent` (the badge endpoint's answer). */
export interface DeviceWithPushTokenPresenceView extends DeviceView {
  push_token_present: boolean;
}

/**
 * A device as the second generation shows it (observed-behaviour, "Later generations of the
 * other APIs"): the versions it reported (null until it does), its groups as objects, its
 * custom attributes. XML: underscored names, `<groups type="array"><name>…`, and
 * `<custom_attributes type="array"><custom_attribute><key/><value/>…`.
 */
export interface DeviceV2View {
  id: number;
  identifier: string;
  os_version: string | null;
  app_identifier: string | null;
  app_version: string | null;
  organization_id: number;
  owner: string;
  description: string;
  pending_approval: boolean;
  groups: { name: string }[];
  custom_attributes: Record<string, string>;
}

/** What a device's report of its versions answers: the device as it now reports itself. */
export interface DeviceVersionsView {
  id: number;
  identifier: string;
  os_version: string | null;
  app_identifier: string | null;
  app_version: string | null;
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
  /** Who uses it, as the API shows it (a submission's `username`). */
  owner: string;
  pendingApproval: boolean;
  pushToken: string | null;
  /** The groups it is in: it may submit their forms. */
  groupIds: number[];
  /** Its custom attributes (a submission's `device` metadata); absent from directories before them. */
  customAttributes?: Record<string, string>;
}

/** A template as other services need it: its questions, to check pushed values and answers against. */
export interface ResolvedForm {
  id: number;
  orgId: number;
  namespace: string;
  name: string;
  /** As the API shows it: "1.00", "1.01"… */
  version: string;
  /** The group it is in. */
  groupId: number;
  questions: unknown[];
}

/** Events the directory publishes after a change (best effort: consumers also expire caches). */
export const directoryEvents = {
  deviceChanged: 'directory.device.changed',
  formChanged: 'directory.form.changed',
  /** After `formChanged`, when the change was the form's deletion: its dependants (delivery's destinations) go too. */
  formDeleted: 'directory.form.deleted',
  /** After `deviceChanged`, when the change was the device's deletion: its outstanding oneshots are withdrawn. */
  deviceDeleted: 'directory.device.deleted',
  tokenRevoked: 'directory.token.revoked',
} as const;

/** A device was approved, updated, deleted or changed its push token. */
export const deviceChangedPayload = z.object({ orgId: id, deviceId: id, identifier: z.string() });
/** A template was replaced or deleted. */
export const formChangedPayload = z.object({ orgId: id, formId: id, namespace: z.string() });
/** A device was deleted. */
export const deviceDeletedPayload = z.object({ orgId: id, deviceId: id });
export type DeviceDeletedPayload = z.infer<typeof deviceDeletedPayload>;
/** A form was deleted. */
export const formDeletedPayload = z.object({ orgId: id, formId: id });
export type FormDeletedPayload = z.infer<typeof formDeletedPayload>;
/** An API token of the organization was revoked. */
export const tokenRevokedPayload = z.object({ orgId: id, tokenId: id });
