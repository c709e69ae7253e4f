import { randomUUID } from 'node:crypto';

/** A generated template namespace: `<configured base>/xforms/<uuid>`. */
export function generateFormNamespace(base: string): string {
  return `${base.replace(/\/+$/, '')}/xforms/${randomUUID()}`;
}
