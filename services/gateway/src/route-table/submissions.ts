import { listFormSubmissionsPayload } from '@formcast/contracts';
import { fieldOf } from '../openapi/json-schema';
import { pageQuery } from '../openapi/operation-parts';
import { submissionDatabasePageView } from '../openapi/views';
import { showSubmission, submissionDatabase, submitForDevice } from '../routes/submissions';
import { possibleAuthors } from './authors';
import { declareArea } from './declare';
import { read, write } from './route-kinds';

const query = (name: string, description: string) => ({ schema: fieldOf(listFormSubmissionsPayload, name), description });

/**
 * Submissions through the organization's API token, as the real product documents them:
 * submitting on behalf of a device (v3), the possible authors (v3), one submission's XML
 * instance (v3), and the submissions database API of a form. Another organization's device,
 * form or submission is 404, as everywhere.
 */
export const submissions = declareArea({
  name: 'submissions',
  mount: '',
  tag: 'Submissions',
  routes: [
    write('post', '/api/v3/devices/:deviceRef/submissions', [{ suffix: '.json', json: 'v3Submission' }, { suffix: '.xml', json: 'v3SubmissionInputs' }], ({ send }) => submitForDevice(send), {
      summary: 'Submit a form on behalf of a device',
      description:
        'The same `submissionIdentifier` again is the same submission: 202 again, nothing new. Answers are checked against the form\'s questions; they may sit inside `<inputs>`, as the form\'s own instance shows them. The body is JSON on `.xml` too.',
      body: {
        json: {
          type: 'object',
          properties: {
            payload: {
              type: 'string',
              description: "the submission's XML instance: `<?xml version='1.0' encoding='UTF-8'?><instance xmlns='<form namespace>' submissionIdentifier='<uuid>'>…</instance>`",
            },
            form_namespace: { type: 'string', description: "the form's namespace, where the instance has no xmlns (must agree with it otherwise)" },
            submission_identifier: { type: 'string', description: 'the client\'s id, where the instance has no submissionIdentifier (must agree otherwise)' },
            destination_ids: {
              oneOf: [{ type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 100 }, { type: 'string' }],
              description: 'only these destinations of the form get the submission (ids, or the same comma-separated); absent: every active one',
            },
          },
          required: ['payload'],
        },
      },
      answers: { 202: { description: 'Stored (empty body)' } },
      errors: [400, 403, 404, 409],
    }),
    possibleAuthors('/api/v3/submission_authors', 'The possible authors of submissions: the organization\'s approved devices'),
    read(
      '/api/v3/submissions/:submissionId',
      'One submission as its XML instance',
      {
        description: 'The instance',
        xml: '`<instance xmlns="<form namespace>" xmlns:dm="…" submissionIdentifier submittingDevice writeTime formVersion dm:submit_time dm:form dm:form_id dm:form_version dm:submitting_device><question>answer</question>…</instance>`',
      },
      ({ send }) => showSubmission(send),
      { suffixes: '.xml', openapi: { description: 'XML only (`.json` is 404). Answers in the form\'s question order.' }, hostile: [{ path: '/api/v3/submissions/1.xml' }] },
    ),
    read('/api/forms/:formId/device_magic_database', 'A page of the form\'s submissions, oldest first (the submissions database API)', { description: 'The page', json: submissionDatabasePageView }, ({ send }) => submissionDatabase(send), {
      suffixes: '.json',
      openapi: {
        query: {
          ...pageQuery(listFormSubmissionsPayload, 'per_page', 'Submissions per page'),
          device_id: query('device_id', 'Only this device\'s (its identifier)'),
          submitted_after: query('submitted_after', 'Submitted strictly after (ISO 8601 time with offset, or a date)'),
          submitted_before: query('submitted_before', 'Submitted strictly before'),
          from_date: query('from_date', 'Submitted at or after (a date: from its start, UTC)'),
          to_date: query('to_date', 'Submitted at or before (a date: to its end, UTC)'),
          submission_ids: { schema: { type: 'string', pattern: '^[1-9][0-9]*(,[1-9][0-9]*)*$' }, description: 'Comma-separated submission ids (at most 1,000)' },
          search: query('search', 'Text found in any answer, any case'),
        },
        errors: [400, 404],
      },
      hostile: [{ path: '/api/forms/:template/device_magic_database.json' }],
    }),
  ],
});
