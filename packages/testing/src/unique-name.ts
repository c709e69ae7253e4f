import { randomBytes } from 'node:crypto';

/** `prefix_` plus a random suffix: a name no other test (or test process) will pick. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}
