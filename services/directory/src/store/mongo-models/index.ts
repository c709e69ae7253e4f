import type { Connection } from 'mongoose';
import { apiTokenSchema } from './api-token.schema';
import { appliedCommandSchema } from './applied-command.schema';
import { deviceSchema } from './device.schema';
import { formSchema } from './form.schema';
import { formVersionSchema } from './form-version.schema';
import { groupSchema } from './group.schema';
import { organizationSchema } from './organization.schema';
import { registeredModel } from '@formcast/storage';

export type { ApiTokenDoc } from './api-token.schema';
export type { AppliedCommandDoc } from './applied-command.schema';
export type { CustomAttributeDoc, DeviceDoc } from './device.schema';
export type { FormDoc } from './form.schema';
export type { FormVersionDoc } from './form-version.schema';
export type { GroupDoc } from './group.schema';
export type { OrganizationDoc } from './organization.schema';

/** The directory's models on one connection, registered there once, each on its collection. */
export function directoryModels(connection: Connection) {
  return {
    Organization: registeredModel(connection, 'Organization', organizationSchema, 'organizations'),
    ApiToken: registeredModel(connection, 'ApiToken', apiTokenSchema, 'api_tokens'),
    Group: registeredModel(connection, 'Group', groupSchema, 'groups'),
    Device: registeredModel(connection, 'Device', deviceSchema, 'devices'),
    Form: registeredModel(connection, 'Form', formSchema, 'forms'),
    FormVersion: registeredModel(connection, 'FormVersion', formVersionSchema, 'form_versions'),
    AppliedCommand: registeredModel(connection, 'AppliedCommand', appliedCommandSchema, 'applied_commands'),
  };
}

export type DirectoryModels = ReturnType<typeof directoryModels>;
