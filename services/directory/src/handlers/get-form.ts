import type { CommandHandler } from '@formcast/bus';
import { formIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { formNotFound } from '../domain/errors';
import type { FormDefinition } from '../domain/records';
import { toFormDefinitionView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** The form's definition, as posted, with its namespace. */
export const getForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormDefinition> => {
    const { formId } = parsePayload(formIdPayload, command.payload);
    const form = await store.forms.get(requireOrgId(command), formId);
    if (!form) throw formNotFound(formId);
    return toFormDefinitionView(form);
  };
