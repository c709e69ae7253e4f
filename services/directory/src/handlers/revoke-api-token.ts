import type { CommandHandler } from '@formcast/bus';
import { revokeApiTokenPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { revokeToken } from '../domain/organization-rules';
import { announceTokenRevoked } from '../events/announce';
import type { DirectoryDeps } from './deps';

/** Its hash no longer authenticates; gateways that hear the announcement forget it at once. */
export const revokeApiToken =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { tokenId } = parsePayload(revokeApiTokenPayload, command.payload);
    const now = new Date().toISOString();
    await deps.store.organizations.changeToken(orgId, tokenId, (token) => revokeToken(token, now));
    await announceTokenRevoked(deps, orgId, tokenId, command.requestId);
    return null;
  };
