import type { CommandHandler } from '@formcast/bus';
import { revokeApiTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

export const revokeApiToken =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { tokenId } = parsePayload(revokeApiTokenPayload, command.payload);
    await store.revokeApiToken(orgId, tokenId);
    return null;
  };
