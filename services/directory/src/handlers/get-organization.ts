import type { CommandHandler } from '@formcast/bus';
import { getOrganizationPayload, type OrganizationSummaryView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { shortNameOf } from '../domain/organization-rules';
import type { DirectoryDeps } from './deps';

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
