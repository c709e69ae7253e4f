import type { CommandHandler } from '@formcast/bus';
import { formIdPayload } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { FormDefinition } from '../domain/records';
import type { DirectoryDeps } from './deps';

/** The form's definition, as posted, with its namespace. */
export const getForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormDefinition> => {
    const orgId = requireOrgId(command);
    const { formId } = parsePayload(formIdPayload, command.payload);
    const form = await store.getForm(orgId, formId);
    if (!form) throw new AppError('not_found', `Form ${formId} does not exist`);
    return { ...form.definition, namespace: form.namespace };
  };
