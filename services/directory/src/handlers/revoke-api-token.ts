import type { CommandHandler } from '@formcast/bus';
import { revokeApiTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { announceTokenRevoked } from './announce';

export const revokeApiToken =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { tokenId } = parsePayload(revokeApiTokenPayload, command.payload);
    await deps.store.revokeApiToken(orgId, tokenId);
    await announceTokenRevoked(deps, orgId, tokenId, command.requestId);
    return null;
  };
