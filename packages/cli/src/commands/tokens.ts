import { Command } from 'commander';
import type { ApiTokenView } from '@formcast/contracts';
import { positiveId } from '../arguments';
import { contextOf } from '../command-context';
import { organizationSubcommand } from '../organization-subcommand';
import { table } from '../output';

interface IssuedToken {
  id: number;
  label: string;
  api_token: string;
}

export function tokensCommand(): Command {
  const tokens = new Command('tokens').description("issue, list and revoke an organization's API tokens");

  organizationSubcommand(tokens, 'issue', 'issue another API token; it is shown once')
    .option('--label <label>', 'what the token is for')
    .action(async (orgId: number, options: { label?: string }, command: Command) => {
      const { client, output } = contextOf(command);
      const issued = await client.post<IssuedToken>(`/organizations/${orgId}/tokens`, options.label === undefined ? {} : { label: options.label });
      output.result(issued, () => `Token ${issued.id} issued${issued.label ? ` (${issued.label})` : ''}. Shown once:\n${issued.api_token}`);
    });

  organizationSubcommand(tokens, 'list', "list an organization's API tokens, revoked ones included")
    .action(async (orgId: number, _options: object, command: Command) => {
      const { client, output } = contextOf(command);
      const listed = await client.get<{ tokens: ApiTokenView[] }>(`/organizations/${orgId}/tokens`);
      output.result(listed, () =>
        table(['ID', 'LABEL', 'CREATED', 'REVOKED'], listed.tokens.map((t) => [t.id, t.label, t.created_at, t.revoked_at])),
      );
    });

  organizationSubcommand(tokens, 'revoke', 'revoke an API token: it stops authenticating at once (within 5 s on other gateway replicas)')
    .argument('<token-id>', 'token id (see tokens list)', positiveId)
    .action(async (orgId: number, tokenId: number, _options: object, command: Command) => {
      const { client, output } = contextOf(command);
      await client.delete(`/organizations/${orgId}/tokens/${tokenId}`);
      output.result({ organization_id: orgId, token_id: tokenId, revoked: true }, () => `Token ${tokenId} of organization ${orgId} revoked.`);
    });

  return tokens;
}
