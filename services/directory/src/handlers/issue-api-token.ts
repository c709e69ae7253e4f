import type { CommandHandler } from '@formcast/bus';
import { issueApiTokenPayload } from '@formcast/contracts';
import { generateSecret, hashSecret, parsePayload, requireOrgId } from '@formcast/platform';
import { newApiToken } from '../domain/organization-rules';
import type { DirectoryDeps } from './deps';

/** Another API token for the organization, shown once, here; only its hash is kept. */
export const issueApiToken =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { label } = parsePayload(issueApiTokenPayload, command.payload);
    const apiToken = generateSecret();
    const token = await store.organizations.addToken(
      orgId,
      newApiToken(hashSecret(apiToken), label ?? '', new Date().toISOString()),
    );
    return { id: token.id, label: token.label, api_token: apiToken };
  };
