import type { CommandHandler } from '@formcast/bus';
import { listFormSubmissionsPayload, type SubmissionDatabasePageView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { submissionQuery } from '../domain/submission-query';
import { toDatabasePageView } from '../domain/views';
import type { PushDeps } from './deps';

/** GET /api/forms/<form_id>/device_magic_database.json: a page of the form's submissions; another organization's form is 404. */
export const listFormSubmissions =
  ({ store, directory }: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionDatabasePageView> => {
    const orgId = requireOrgId(command);
    const input = parsePayload(listFormSubmissionsPayload, command.payload);
    await directory.formById(orgId, input.formId, command.requestId);
    const page = await store.listSubmissions(orgId, submissionQuery(input));
    return toDatabasePageView(page, input.page, input.per_page);
  };
