import type { CommandHandler } from '@formcast/bus';
import { authenticateTokenPayload } from '@formcast/contracts';
import { AppError, parsePayload } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

/** Which organization an API token (given as its hash) belongs to. */
export const authenticateToken =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const { tokenHash } = parsePayload(authenticateTokenPayload, command.payload);
    const orgId = await store.organizations.findOrgIdByTokenHash(tokenHash);
    if (orgId === null) throw new AppError('unauthorized', 'Invalid API token');
    return { orgId };
  };
