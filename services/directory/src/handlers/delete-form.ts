import type { CommandHandler } from '@formcast/bus';
import { formIdPayload } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

export const deleteForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command) => {
    const orgId = requireOrgId(command);
    const { formId } = parsePayload(formIdPayload, command.payload);
    await store.deleteForm(orgId, formId);
    return null;
  };
