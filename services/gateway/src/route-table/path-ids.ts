import { directoryCommands } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import type { PathId } from './declaration';

/** The path ids the table's routes name, each resolved by its own lookup. */
export const pathIds = {
  group: { name: 'groupId', resolve: (lookup, ids) => lookup(directoryCommands.getGroup, { groupId: pathId(ids['groupId'], 'Group') }) },
  device: { name: 'deviceId', resolve: (lookup, ids) => lookup(directoryCommands.getDevice, { deviceId: pathId(ids['deviceId'], 'Device') }) },
  form: { name: 'formId', resolve: (lookup, ids) => lookup(directoryCommands.getForm, { formId: pathId(ids['formId'], 'Form') }) },
} satisfies Record<string, PathId>;
