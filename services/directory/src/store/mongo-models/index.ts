import type { Connection } from 'mongoose';
import { apiTokenModel } from './api-token.schema';
import { deviceModel } from './device.schema';
import { formModel } from './form.schema';
import { groupModel } from './group.schema';
import { organizationModel } from './organization.schema';

export type { ApiTokenDoc } from './api-token.schema';
export type { DeviceDoc } from './device.schema';
export type { FormDoc } from './form.schema';
export type { GroupDoc } from './group.schema';
export type { OrganizationDoc } from './organization.schema';

/** The directory's models on one connection, registered there once. */
export function directoryModels(connection: Connection) {
  return {
    Organization: organizationModel(connection),
    ApiToken: apiTokenModel(connection),
    Group: groupModel(connection),
    Device: deviceModel(connection),
    Form: formModel(connection),
  };
}

export type DirectoryModels = ReturnType<typeof directoryModels>;
