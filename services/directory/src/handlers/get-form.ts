import type { CommandHandler } from '@formcast/bus';
import { getFormPayload } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { formNotFound } from '../domain/errors';
import type { FormDefinition } from '../domain/records';
import { formatFormVersion, revisionOfVersion, toFormDefinitionView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/**
 * The form's definition, as posted, with its namespace, version, description and group
 * (form.md). With `version` (`"1.02"` as the list shows it, or the revision, `3`), the
 * definition the form had at that version: the directory keeps each one a new definition
 * replaces. A version the form never had is 404 saying which one is current.
 */
export const getForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormDefinition> => {
    const orgId = requireOrgId(command);
    const { formId, version } = parsePayload(getFormPayload, command.payload);
    const [form, groupNames] = await Promise.all([store.forms.get(orgId, formId), store.groups.names(orgId)]);
    if (!form) throw formNotFound(formId);
    if (version === undefined) return toFormDefinitionView(form, groupNames);
    const revision = revisionOfVersion(version);
    const kept = revision === undefined ? null : await store.forms.getVersion(orgId, formId, revision);
    if (!kept) {
      throw new AppError('not_found', `Form ${formId} has no version ${version}: its versions run from 1.00 to ${formatFormVersion(form.revision)} (the current one)`);
    }
    return toFormDefinitionView({ ...form, name: kept.name, revision: kept.revision, definition: kept.definition }, groupNames);
  };
