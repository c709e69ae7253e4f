import type { CommandHandler } from '@formcast/bus';
import { resolveFormPayload, type ResolvedForm } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryDeps } from './deps';

/** For other services: a template by its namespace, with its questions. */
export const resolveForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<ResolvedForm> => {
    const orgId = requireOrgId(command);
    const { namespace } = parsePayload(resolveFormPayload, command.payload);
    const form = await store.findFormByNamespace(orgId, namespace);
    if (!form) throw new AppError('not_found', `form_namespace: no form of this organization has namespace ${namespace}`);
    return { id: form.id, orgId: form.orgId, namespace: form.namespace, name: form.name, questions: form.definition.children };
  };
