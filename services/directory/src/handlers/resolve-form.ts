import type { CommandHandler } from '@formcast/bus';
import { resolveFormPayload, type ResolvedForm } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { formNotFound } from '../domain/errors';
import { toResolvedForm } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** For other services: a template by its namespace or its id, with its questions. */
export const resolveForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<ResolvedForm> => {
    const orgId = requireOrgId(command);
    const input = parsePayload(resolveFormPayload, command.payload);
    if ('formId' in input) {
      const form = await store.forms.get(orgId, input.formId);
      if (!form) throw formNotFound(input.formId);
      return toResolvedForm(form);
    }
    const form = await store.forms.findByNamespace(orgId, input.namespace);
    if (!form) throw new AppError('not_found', `form_namespace: no form of this organization has namespace ${input.namespace}`);
    return toResolvedForm(form);
  };
