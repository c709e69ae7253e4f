import type { CommandHandler } from '@formcast/bus';
import { formIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';
import { announceFormChanged } from './announce';

export const deleteForm =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { formId } = parsePayload(formIdPayload, command.payload);
    const form = await deps.store.getForm(orgId, formId);
    await deps.store.deleteForm(orgId, formId);
    if (form) await announceFormChanged(deps, form, command.requestId);
    return null;
  };
