import type { CommandHandler } from '@formcast/bus';
import { getFormPayload } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { formNotFound } from '../domain/errors';
import type { Form, FormDefinition } from '../domain/records';
import { formatFormVersion, toFormDefinitionView } from '../domain/views';
import type { DirectoryDeps } from './deps';

/** `?version=`: `"1.02"` as the list shows it, or the revision (`2`). */
function isVersionOf(form: Form, version: string): boolean {
  return version === formatFormVersion(form.revision) || version === String(form.revision) || Number(version) === Number(formatFormVersion(form.revision));
}

/**
 * The form's definition, as posted, with its namespace, version, description and group
 * (form.md). With `version`, only the current one exists: Formcast keeps no earlier
 * definition, so another version is 404 saying which one is current.
 */
export const getForm =
  ({ store }: DirectoryDeps): CommandHandler =>
  async (command): Promise<FormDefinition> => {
    const orgId = requireOrgId(command);
    const { formId, version } = parsePayload(getFormPayload, command.payload);
    const [form, groupNames] = await Promise.all([store.forms.get(orgId, formId), store.groups.names(orgId)]);
    if (!form) throw formNotFound(formId);
    if (version !== undefined && !isVersionOf(form, version)) {
      throw new AppError('not_found', `Form ${formId} has no version ${version}: its current version is ${formatFormVersion(form.revision)}, and earlier ones are not kept`);
    }
    return toFormDefinitionView(form, groupNames);
  };
