import type { CommandHandler } from '@formcast/bus';
import { createOrganizationPayload, type OrganizationCreatedView } from '@formcast/contracts';
import { generateSecret, hashSecret, parsePayload } from '@formcast/platform';
import { enrollmentCodeBytes, foundOrganization } from '../domain/organization-rules';
import type { DirectoryDeps } from './deps';

/** A new organization with its first API token and enrollment code, shown once, here; only their hashes are kept. */
export const createOrganization =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<OrganizationCreatedView> => {
    const { name } = parsePayload(createOrganizationPayload, command.payload);
    const apiToken = generateSecret();
    const enrollmentCode = generateSecret(enrollmentCodeBytes);
    const { organization } = await store.organizations.create(
      foundOrganization(
        { name, enrollmentCodeHash: hashSecret(enrollmentCode), tokenHash: hashSecret(apiToken) },
        new Date().toISOString(),
      ),
    );
    return {
      organization: { id: organization.id, name: organization.name, enrollment_code: enrollmentCode },
      api_token: apiToken,
    };
  };
