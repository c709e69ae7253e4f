import type { CommandHandler } from '@formcast/bus';
import { issueApiTokenPayload } from '@formcast/contracts';
import { AppError, generateSecret, hashSecret, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

export const issueApiToken =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { label } = parsePayload(issueApiTokenPayload, command.payload);
    if (!(await store.getOrganization(orgId))) throw new AppError('not_found', `Organization ${orgId} does not exist`);
    const apiToken = generateSecret();
    const token = await store.addApiToken(orgId, hashSecret(apiToken), label ?? '');
    return { id: token.id, label: token.label, api_token: apiToken };
  };
