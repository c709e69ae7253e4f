import type { CommandHandler } from '@formcast/bus';
import { listOrganizationsPayload, type OrganizationView } from '@formcast/contracts';
import { parsePayload } from '@formcast/platform';
import { toOrganizationView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** Every organization, ascending by id (administration). */
export const listOrganizations =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<OrganizationView[]> => {
    parsePayload(listOrganizationsPayload, command.payload);
    return (await store.organizations.list()).map(toOrganizationView);
  };
