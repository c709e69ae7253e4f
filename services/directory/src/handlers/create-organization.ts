import type { CommandHandler } from '@formcast/bus';
import { createOrganizationPayload, type OrganizationCreatedView } from '@formcast/contracts';
import { generateSecret, hashSecret, parsePayload } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

export const createOrganization =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<OrganizationCreatedView> => {
    const { name } = parsePayload(createOrganizationPayload, command.payload);
    const apiToken = generateSecret();
    const { organization } = await store.createOrganization({
      name,
      enrollmentCode: generateSecret(12),
      tokenHash: hashSecret(apiToken),
      tokenLabel: 'first token',
    });
    return {
      organization: { id: organization.id, name: organization.name, enrollment_code: organization.enrollmentCode },
      api_token: apiToken,
    };
  };
