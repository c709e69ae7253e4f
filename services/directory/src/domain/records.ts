/**
 * What the directory keeps: one record type per aggregate, the source every other shape
 * derives from (what a store is given to create or change, the MongoDB documents). Every
 * record carries its organization id.
 */

export interface Organization {
  id: number;
  name: string;
  createdAt: string;
}

/** What enrolls a device into the organization: kept by the store, never part of the record it gives out. */
export interface OrganizationSecret {
  /** SHA-256 of the enrollment code shown once, when it is made; the code itself is never kept. */
  enrollmentCodeHash: string;
}

export interface ApiToken {
  id: number;
  orgId: number;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

/** What authenticates an API token: kept by the store, never part of the record it gives out. */
export interface ApiTokenSecret {
  /** SHA-256 of the token; the token itself is never kept. */
  tokenHash: string;
}

export interface Group {
  id: number;
  orgId: number;
  name: string;
  /** The organization's `Default` group: never deleted, home of forms without a group. */
  isDefault: boolean;
  /** Ascending. */
  formIds: number[];
  /** Ascending. */
  deviceIds: number[];
  /** Its tags (group.md, groups v2): names, each once, in the order given. */
  tags: string[];
}

export interface Device {
  id: number;
  orgId: number;
  identifier: string;
  owner: string;
  description: string;
  pendingApproval: boolean;
  pushToken: string | null;
  /** Ids of the groups it is in, ascending. */
  groupIds: number[];
  /** What the device last reported of itself (at enrollment or since); null until it does. */
  osVersion: string | null;
  appIdentifier: string | null;
  appVersion: string | null;
  /** Set through the devices API: name → value (see checkCustomAttributes). */
  customAttributes: CustomAttributes;
  createdAt: string;
}

export type CustomAttributes = Record<string, string>;

/** What authenticates a device: kept by the store, never part of the record it gives out. */
export interface DeviceSecret {
  /** SHA-256 of the device secret shown once at enrollment. */
  secretHash: string;
}

/** A question of a form definition; `subform` and `group` (repeating) hold children. */
export interface Question {
  identifier: string;
  title?: string;
  type: string;
  children?: Question[];
  [other: string]: unknown;
}

export interface FormDefinition {
  type: 'root';
  title: string;
  namespace?: string;
  children: Question[];
  [other: string]: unknown;
}

export interface Form {
  id: number;
  orgId: number;
  name: string;
  namespace: string;
  description: string;
  /** Starts at 1, +1 on every new definition. */
  revision: number;
  groupId: number;
  /** `PUT /api/v3/forms/<id>/lock` (form.md): a locked form takes no new definition until unlocked. */
  locked: boolean;
  definition: FormDefinition;
  createdAt: string;
  updatedAt: string;
}

// New records: what the domain decides and a store saves, before the store gives them ids --

export type NewOrganization = Omit<Organization, 'id'> & OrganizationSecret;
/** Its organization is given beside it (a founding token has none yet). */
export type NewApiToken = Omit<ApiToken, 'id' | 'orgId'> & ApiTokenSecret;
/** A group is created without members; they come with later changes. */
export type NewGroup = Pick<Group, 'name' | 'isDefault'>;
export type NewDevice = Omit<Device, 'id'> & DeviceSecret;
export type NewForm = Omit<Form, 'id'>;

/** An organization, its Default group and its first API token: created together. */
export interface OrganizationFounding {
  organization: NewOrganization;
  defaultGroup: NewGroup;
  token: NewApiToken;
}

// Changes: what the domain decides and a store saves, for a record that exists ------------

export type ApiTokenChange = Pick<ApiToken, 'revokedAt'>;
/** Only the fields given change. `groupIds` replaces the device's groups, `customAttributes` its attributes. */
export type DeviceChange = Partial<
  Pick<Device, 'owner' | 'description' | 'pendingApproval' | 'pushToken' | 'groupIds' | DeviceReportedField | 'customAttributes'>
>;
/** What a device reports of itself. */
export type DeviceReportedField = 'osVersion' | 'appIdentifier' | 'appVersion';
export type FormRevision = Pick<Form, 'definition' | 'name' | 'revision' | 'updatedAt'>;

/**
 * A definition a form had before its current one (form.md's `?version=`): kept when a new
 * definition replaces it, deleted with the form.
 */
export interface FormVersion {
  revision: number;
  name: string;
  definition: FormDefinition;
}

/** Forms going into one group. */
export interface FormMove {
  formIds: number[];
  toGroupId: number;
  movedAt: string;
}

/** Only what is given changes. */
export interface GroupChange {
  name?: string;
  formMoves?: FormMove[];
  /** The group's devices from now on (a device may be in many groups). */
  deviceIds?: number[];
  /** The group's tags from now on. */
  tags?: string[];
}

/** Deleting a group ends its devices' memberships; its forms go where the moves say. */
export interface GroupDeletion {
  formMoves: FormMove[];
}
