import type { CommandHandler } from '@formcast/bus';
import { getOrganizationPayload, type OrganizationSummaryView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

/** Formcast keeps no short name: the name in lower case, each run of other characters than letters and digits as `_`. */
export function shortNameOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The calling organization (the envelope's): its id, name and short name. */
export const getOrganization =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<OrganizationSummaryView> => {
    parsePayload(getOrganizationPayload, command.payload);
    const orgId = requireOrgId(command);
    const organization = await store.organizations.get(orgId);
    if (!organization) throw new AppError('not_found', `Organization ${orgId} does not exist`);
    return { id: organization.id, name: organization.name, short_name: shortNameOf(organization.name) };
  };
