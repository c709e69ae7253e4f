import type { Envelope, ResolvedForm } from '@formcast/contracts';
import { AppError, isAppError, requireOrgId } from '@formcast/platform';
import type { Oneshot } from '../domain/records';
import type { DirectoryLookup } from './directory-lookup';
import { pushTemplate } from './push-template';

/** The form a submission names: by id, from a path (404 when the organization has none such), or by namespace, from a body (400 naming form_namespace). */
export function submissionForm(directory: DirectoryLookup, command: Envelope, by: { formId: number } | { namespace: string }): Promise<ResolvedForm> {
  if ('formId' in by) return directory.formById(requireOrgId(command), by.formId, command.requestId);
  return pushTemplate(directory, command, by.namespace);
}

/** The template a oneshot was pushed from, to check its answers against; deleted since: it can no longer be submitted. */
export async function oneshotTemplate(directory: DirectoryLookup, command: Envelope, oneshot: Oneshot): Promise<ResolvedForm> {
  try {
    return await directory.form(requireOrgId(command), oneshot.templateNamespace, command.requestId);
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') {
      throw new AppError('conflict', `Oneshot ${oneshot.id}'s form no longer exists; it can no longer be submitted`);
    }
    throw error;
  }
}
