import { Command } from 'commander';
import type { OrganizationCreatedView, OrganizationView } from '@formcast/contracts';
import { contextOf } from '../command-context';
import { table } from '../output';

export function organizationsCommand(): Command {
  const organizations = new Command('organizations').description('create and list organizations');

  organizations
    .command('create')
    .description('create an organization; its first API token and enrollment code are shown once')
    .argument('<name>', 'the organization name')
    .action(async (name: string, _options: object, command: Command) => {
      const { client, output } = contextOf(command);
      const created = await client.post<OrganizationCreatedView>('/organizations', { name });
      output.result(created, () =>
        [
          `Organization ${created.organization.id} (${created.organization.name}) created.`,
          `API token (shown once):       ${created.api_token}`,
          `Enrollment code (shown once): ${created.organization.enrollment_code}`,
        ].join('\n'),
      );
    });

  organizations
    .command('list')
    .description('list every organization')
    .action(async (_options: object, command: Command) => {
      const { client, output } = contextOf(command);
      const listed = await client.get<{ organizations: OrganizationView[] }>('/organizations');
      output.result(listed, () =>
        table(['ID', 'NAME', 'CREATED'], listed.organizations.map((o) => [o.id, o.name, o.created_at])),
      );
    });

  return organizations;
}
