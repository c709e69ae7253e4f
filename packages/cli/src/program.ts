import { Command, Option } from 'commander';
import { deadLettersCommand } from './commands/dead-letters';
import { enrollmentCodeCommand } from './commands/enrollment-code';
import { organizationsCommand } from './commands/organizations';
import { tokensCommand } from './commands/tokens';
import { defaultUrl } from './connection';

const exitCodesHelp = `
Exit codes:
  0  done
  1  usage: unknown command, bad argument or option, no admin token found
  2  refused by the server (any 4xx: unknown organization, token or dead letter; wrong admin token)
  3  server unreachable, timed out, or failed (5xx)`;

/** `formcast`: the admin API from a shell. Options are read before or after the command. */
export function buildProgram(): Command {
  const program = new Command('formcast')
    .description('Administer a Formcast server through its admin API')
    .addOption(new Option('--url <url>', `the server (env FORMCAST_URL, default ${defaultUrl})`))
    .addOption(new Option('--admin-token <token>', 'the admin token (env FORMCAST_ADMIN_TOKEN, else read from <data-dir>/admin-token)'))
    .addOption(new Option('--data-dir <dir>', "embedded mode's DATA_DIR, where its admin token is (env DATA_DIR, default ./data)"))
    .option('--json', "print the API's JSON answer, for scripts");
  for (const command of [organizationsCommand(), tokensCommand(), enrollmentCodeCommand(), deadLettersCommand()]) {
    program.addCommand(command);
  }
  everyCommand(program, (command) =>
    command.configureHelp({ showGlobalOptions: true }).showHelpAfterError('(add --help for usage)').addHelpText('after', exitCodesHelp),
  );
  return program;
}

function everyCommand(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) everyCommand(sub, apply);
}
