import { AppError } from '@formcast/platform';

/**
 * The directory's errors, worded for the people who read them: the gateway shows these
 * messages as they are. The rules throw some, the store adapters others.
 */

export const organizationNotFound = (id: number) =>
  new AppError('not_found', `Organization ${id} does not exist`);
export const apiTokenNotFound = (id: number) => new AppError('not_found', `API token ${id} does not exist`);
export const groupNotFound = (id: number) => new AppError('not_found', `Group ${id} does not exist`);
export const deviceNotFound = (id: number) => new AppError('not_found', `Device ${id} does not exist`);
export const formNotFound = (id: number) => new AppError('not_found', `Form ${id} does not exist`);

/**
 * The ids named in a change (group members, a device's groups) that the organization does
 * not have, as an 'invalid' error naming them (ascending, each once); null when it has them all.
 */
export function unknownIdsAmong(kind: 'Form' | 'Device' | 'Group', wanted: number[], found: Iterable<number>): AppError | null {
  const present = new Set(found);
  const ids = [...new Set(wanted)].filter((id) => !present.has(id)).sort((a, b) => a - b);
  if (ids.length === 0) return null;
  const message =
    ids.length === 1
      ? `${kind} ${ids[0]} does not exist`
      : `${kind}s ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)} do not exist`;
  return new AppError('invalid', message, { ids });
}

export const defaultGroupNotDeletable = () =>
  new AppError('invalid', 'The Default group cannot be deleted');
export const defaultGroupNotRenamable = () =>
  new AppError('invalid', 'The Default group cannot be renamed');

export const groupNameTaken = (name: string) =>
  new AppError('conflict', `A group named "${name}" already exists`);
export const deviceIdentifierTaken = (identifier: string) =>
  new AppError('conflict', `Device identifier "${identifier}" is already enrolled`);
export const deviceSecretTaken = () => new AppError('conflict', 'This device secret is already in use');
export const formNamespaceTaken = (namespace: string) =>
  new AppError('conflict', `A form with namespace "${namespace}" already exists`);
export const enrollmentCodeTaken = () =>
  new AppError('conflict', 'This enrollment code is already in use');
export const apiTokenTaken = () => new AppError('conflict', 'This API token already exists');
