import type { Command } from 'commander';
import { AdminClient } from './admin-client';
import { resolveConnection } from './connection';
import { Output } from './output';

/** The global options every command reads: where the server is, the admin token, the output. */
export interface GlobalOptions {
  url?: string;
  adminToken?: string;
  dataDir?: string;
  json?: boolean;
}

export function contextOf(command: Command): { client: AdminClient; output: Output } {
  const options = command.optsWithGlobals<GlobalOptions>();
  return { client: new AdminClient(resolveConnection(options)), output: new Output(options.json === true) };
}
