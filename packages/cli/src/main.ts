import { CliError, exitCodes } from './exit-codes';
import { buildProgram } from './program';

/** Runs `formcast` with the process's arguments; usage errors exit 1 from inside commander. */
async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`formcast: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`formcast: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = exitCodes.usage;
  }
}

void main();
