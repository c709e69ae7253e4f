import type { CommandHandler } from '@formcast/bus';
import { lockFormPayload, type FormListItemView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toFormListItemView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/**
 * `PUT /api/v3/forms/<id>/lock` and `/unlock` (form.md): a locked form refuses a new
 * definition (409 naming the unlock) until it is unlocked; locking twice is no error.
 */
export const lockForm =
  (deps: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormListItemView> => {
    const orgId = requireOrgId(command);
    const { formId, locked } = parsePayload(lockFormPayload, command.payload);
    const form = await deps.store.forms.setLocked(orgId, formId, locked, new Date().toISOString());
    return toFormListItemView(form, await deps.store.groups.names(orgId));
  };
