import { randomUUID } from 'node:crypto';

/** A name no other test run uses, so runs sharing a broker never see each other's messages. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
