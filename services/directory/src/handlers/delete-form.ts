import type { CommandHandler } from '@formcast/bus';
import { formIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { announceFormChanged, announceFormDeleted } from '../events/announce';
import type { DirectoryDeps } from './deps';

export const deleteForm =
  (deps: DirectoryDeps): CommandHandler =>
  async (command) => {
    const { formId } = parsePayload(formIdPayload, command.payload);
    const form = await deps.store.forms.delete(requireOrgId(command), formId);
    await announceFormChanged(deps, form, command.requestId);
    await announceFormDeleted(deps, form, command.requestId);
    return null;
  };
