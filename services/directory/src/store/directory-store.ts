import type { ApiToken, Device, Form, FormDefinition, Group, Organization } from '../domain/records';

/**
 * The directory's store port. Each method is one atomic local write or one read, scoped
 * by organization: an id of another organization behaves exactly as an unknown id.
 *
 * Errors: methods throw AppError (from @formcast/platform) with
 * - 'not_found' for an unknown (or foreign) organization/group/device/form/token id,
 * - 'conflict' for a duplicate device identifier, form namespace or group name,
 * - 'invalid' for ids in a group update that are not the organization's forms/devices,
 *   or for deleting the Default group;
 * and nothing is changed when they throw.
 */
export interface DirectoryStore {
  // Organizations and API tokens -------------------------------------------------------
  /** Creates the organization, its `Default` group and its first API token, together. */
  createOrganization(input: {
    name: string;
    enrollmentCode: string;
    tokenHash: string;
    tokenLabel: string;
  }): Promise<{ organization: Organization; token: ApiToken }>;
  getOrganization(orgId: number): Promise<Organization | null>;
  findOrganizationByEnrollmentCode(code: string): Promise<Organization | null>;
  addApiToken(orgId: number, tokenHash: string, label: string): Promise<ApiToken>;
  listApiTokens(orgId: number): Promise<ApiToken[]>;
  /** Marks it revoked; its hash no longer authenticates. */
  revokeApiToken(orgId: number, tokenId: number): Promise<void>;
  /** The organization of a live (not revoked) token, by the token's hash. */
  findOrgIdByTokenHash(tokenHash: string): Promise<number | null>;

  // Groups -----------------------------------------------------------------------------
  /** Ascending by id; Default first as it is created first. */
  listGroups(orgId: number): Promise<Group[]>;
  getGroup(orgId: number, groupId: number): Promise<Group | null>;
  findGroupByName(orgId: number, name: string): Promise<Group | null>;
  /** Creates groups with these names (each unique in the organization, else 'conflict'). */
  createGroups(orgId: number, names: string[]): Promise<Group[]>;
  /**
   * Changes what is given. `formIds` replaces the group's forms: a listed form leaves its
   * previous group, a form no longer listed goes back to Default. `deviceIds` replaces the
   * group's devices (a device may be in many groups). Unknown/foreign ids: 'invalid'.
   */
  updateGroup(
    orgId: number,
    groupId: number,
    patch: { name?: string; formIds?: number[]; deviceIds?: number[] },
  ): Promise<Group>;
  /** Its forms go back to Default; its memberships end. Default: 'invalid'. */
  deleteGroup(orgId: number, groupId: number): Promise<void>;

  // Devices ----------------------------------------------------------------------------
  /**
   * A new pending device, member of `groupIds` (none when omitted; unknown/foreign ids:
   * 'invalid'). Duplicate identifier (in any organization): 'conflict'.
   */
  enrollDevice(input: {
    orgId: number;
    identifier: string;
    owner: string;
    description: string;
    pushToken: string | null;
    secretHash: string;
    groupIds?: number[];
  }): Promise<Device>;
  /** Ascending by id. */
  listDevices(orgId: number, filter?: { approvedOnly?: boolean }): Promise<Device[]>;
  getDevice(orgId: number, deviceId: number): Promise<Device | null>;
  findDeviceByIdentifier(orgId: number, identifier: string): Promise<Device | null>;
  findDeviceBySecretHash(secretHash: string): Promise<Device | null>;
  /** `groupIds` replaces the device's groups (unknown/foreign ids: 'invalid'). */
  updateDevice(
    orgId: number,
    deviceId: number,
    patch: { owner?: string; description?: string; groupIds?: number[]; pushToken?: string | null },
  ): Promise<Device>;
  /**
   * Clears the device's push token only while it is still `pushToken`, in one atomic step:
   * a newer token the device sent meanwhile is kept. The device as changed, or null when
   * it is unknown or its token is another.
   */
  clearPushTokenIf(orgId: number, deviceId: number, pushToken: string): Promise<Device | null>;
  approveDevice(orgId: number, deviceId: number): Promise<Device>;
  deleteDevice(orgId: number, deviceId: number): Promise<void>;

  // Forms ------------------------------------------------------------------------------
  /** A new form at revision 1 in `groupId` (or Default). Duplicate namespace in the org: 'conflict'. */
  createForm(input: {
    orgId: number;
    name: string;
    namespace: string;
    description: string;
    definition: FormDefinition;
    groupId?: number;
  }): Promise<Form>;
  /** Ascending by id. */
  listForms(orgId: number): Promise<Form[]>;
  getForm(orgId: number, formId: number): Promise<Form | null>;
  findFormByNamespace(orgId: number, namespace: string): Promise<Form | null>;
  /** Replaces the definition (and the name, from its title); revision + 1. */
  replaceFormDefinition(orgId: number, formId: number, definition: FormDefinition): Promise<Form>;
  /** Moves the form into the group (unknown/foreign group: 'not_found'). */
  moveForm(orgId: number, formId: number, groupId: number): Promise<Form>;
  deleteForm(orgId: number, formId: number): Promise<void>;

  /** Readiness: the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
