import type { CommandHandler } from '@formcast/bus';
import { updateFormPayload, type FormUpdatedView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { checkFormDefinition } from '../domain/form-definition';
import { formatFormVersion } from '../domain/views';
import type { DirectoryDeps } from './deps';
import { announceFormChanged } from './announce';

/** A new definition for the same template: its namespace never changes. */
export const updateForm =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormUpdatedView> => {
    const orgId = requireOrgId(command);
    const { formId, definition: input } = parsePayload(updateFormPayload, command.payload);
    const definition = checkFormDefinition(input);
    const current = await deps.store.getForm(orgId, formId);
    if (!current) throw new AppError('not_found', `Form ${formId} does not exist`);
    if (definition.namespace !== undefined && definition.namespace !== current.namespace) {
      throw new AppError('invalid', 'namespace: a form keeps its namespace; omit it or send the current one');
    }
    const form = await deps.store.replaceFormDefinition(orgId, formId, { ...definition, namespace: current.namespace });
    await announceFormChanged(deps, form, command.requestId);
    return { id: form.id, namespace: form.namespace, name: form.name, version: formatFormVersion(form.revision) };
  };
