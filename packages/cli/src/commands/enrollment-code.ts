import { Command } from 'commander';
import type { EnrollmentCodeView } from '@formcast/contracts';
import { contextOf } from '../command-context';
import { organizationSubcommand } from '../organization-subcommand';

export function enrollmentCodeCommand(): Command {
  const enrollmentCode = new Command('enrollment-code').description("an organization's enrollment code");

  organizationSubcommand(enrollmentCode, 'rotate', 'give the organization a new enrollment code, shown once; the old one stops enrolling at once')
    .action(async (orgId: number, _options: object, command: Command) => {
      const { client, output } = contextOf(command);
      const rotated = await client.post<EnrollmentCodeView>(`/organizations/${orgId}/enrollment_code`);
      output.result(rotated, () => `New enrollment code for organization ${rotated.organization_id} (shown once):\n${rotated.enrollment_code}`);
    });

  return enrollmentCode;
}
