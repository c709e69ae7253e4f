import type { Command } from 'commander';
import { positiveId } from './arguments';

/** A subcommand of `parent` on one organization: its first argument, `<org>`, is the organization's id. */
export function organizationSubcommand(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description).argument('<org>', 'organization id', positiveId);
}
