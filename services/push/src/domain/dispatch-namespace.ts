import { randomUUID } from 'node:crypto';

/** A pushed copy's namespace: the template's, `?`, a new UUID (as the real product does). */
export function dispatchNamespace(templateNamespace: string): string {
  return `${templateNamespace}?${randomUUID()}`;
}
