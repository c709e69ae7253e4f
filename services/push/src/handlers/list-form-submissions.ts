import type { CommandHandler } from '@formcast/bus';
import { listFormSubmissionsPayload, type Envelope, type SubmissionDatabasePageView } from '@formcast/contracts';
import { isAppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import type { Submission } from '../domain/records';
import { submissionQuery } from '../domain/submission-query';
import { toDatabasePageView } from '../domain/views';
import type { PushDeps } from './deps';

/** The custom attributes of the page's devices (from the directory cache); a device deleted since shows none. */
async function deviceAttributes(directory: DirectoryLookup, command: Envelope, orgId: number, submissions: Submission[]) {
  const identifiers = [...new Set(submissions.map((s) => s.deviceIdentifier))];
  const attributes = new Map<string, Record<string, string>>();
  await Promise.all(
    identifiers.map(async (identifier) => {
      try {
        attributes.set(identifier, (await directory.device(orgId, identifier, command.requestId)).customAttributes ?? {});
      } catch (error) {
        if (!(isAppError(error) && error.code === 'not_found')) throw error;
      }
    }),
  );
  return attributes;
}

/** GET /api/forms/<form_id>/device_magic_database.json: a page of the form's submissions; another organization's form is 404. */
export const listFormSubmissions =
  ({ store, directory }: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionDatabasePageView> => {
    const orgId = requireOrgId(command);
    const input = parsePayload(listFormSubmissionsPayload, command.payload);
    const form = await directory.formById(orgId, input.formId, command.requestId);
    const page = await store.listSubmissions(orgId, submissionQuery(input, form.questions));
    const attributes = await deviceAttributes(directory, command, orgId, page.submissions);
    return toDatabasePageView(page, input.page, input.per_page, form.questions, attributes);
  };
