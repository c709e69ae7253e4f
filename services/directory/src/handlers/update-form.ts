import type { CommandHandler } from '@formcast/bus';
import { updateFormPayload, type FormUpdatedView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { checkFormDefinition } from '../domain/form-definition';
import { reviseForm } from '../domain/form-rules';
import { formatFormVersion } from '../domain/views';
import { announceFormChanged } from '../events/announce';
import type { DirectoryDeps } from './deps';

/** A new definition for the same template (see reviseForm). */
export const updateForm =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormUpdatedView> => {
    const orgId = requireOrgId(command);
    const { formId, definition: input } = parsePayload(updateFormPayload, command.payload);
    const definition = checkFormDefinition(input);
    const now = new Date().toISOString();
    const form = await deps.store.forms.revise(orgId, formId, (current) => reviseForm(current, definition, now));
    await announceFormChanged(deps, form, command.requestId);
    return { id: form.id, namespace: form.namespace, name: form.name, version: formatFormVersion(form.revision) };
  };
