import type { DeviceStore } from './devices/device-store';
import type { FormStore } from './forms/form-store';
import type { GroupStore } from './groups/group-store';
import type { OrganizationStore } from './organizations/organization-store';
import type { ServiceStore } from '@formcast/storage';

export type { DeviceStore, FormStore, GroupStore, OrganizationStore };

/**
 * The directory's store port: one part per aggregate, on one database (one SQLite file or
 * one MongoDB database). Stores load and save; the rules are the domain's, and where a rule
 * must hold together with the write, a part takes the rule's decision as a function of the
 * record it loads, and saves what it answers in the same transaction.
 *
 * Each method is one atomic local write or one read, scoped by organization: an id of
 * another organization behaves exactly as an unknown id. Errors: methods throw AppError
 * (from @formcast/platform) with
 * - 'not_found' for an unknown (or foreign) organization/group/device/form/token id,
 * - 'conflict' for a duplicate enrollment code, token hash, device identifier or secret,
 *   form namespace or group name,
 * - 'invalid' for ids named as members or groups that are not the organization's;
 * and nothing is changed when they throw.
 */
export interface DirectoryStore extends ServiceStore {
  readonly organizations: OrganizationStore;
  readonly groups: GroupStore;
  readonly devices: DeviceStore;
  readonly forms: FormStore;
}
