import { z } from 'zod';
import { listFormSubmissionsPayload } from '@formcast/contracts';
import { fieldOf } from './json-schema';
import type { PathTable } from './operation';
import { authorsAnswer, authorsQuery, submissionDatabasePageView } from './views';

/** Submissions through the API token: on behalf of a device (v3), authors, one instance (v3), the submissions database. */

const query = (name: string, description: string) => ({ schema: fieldOf(listFormSubmissionsPayload, name), description });

export const submissionPaths: PathTable = {
  '/api/v3/devices/{deviceRef}/submissions': {
    post: {
      summary: 'Submit a form on behalf of a device',
      description:
        'The same `submissionIdentifier` again is the same submission: 202 again, nothing new. Answers are checked against the form\'s questions; they may sit inside `<inputs>`, as the form\'s own instance shows them. The body is JSON on `.xml` too.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
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
    },
  },
  '/api/v3/submission_authors': {
    get: {
      summary: 'The possible authors of submissions: the organization\'s approved devices',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      query: authorsQuery,
      answers: {
        200: authorsAnswer,
      },
      errors: [400],
    },
  },
  '/api/v3/submissions/{submissionId}': {
    get: {
      summary: 'One submission as its XML instance',
      description: 'XML only (`.json` is 404). Answers in the form\'s question order.',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: {
        200: {
          description: 'The instance',
          xml: '`<instance xmlns="<form namespace>" xmlns:dm="…" submissionIdentifier submittingDevice writeTime formVersion dm:submit_time dm:form dm:form_id dm:form_version dm:submitting_device><question>answer</question>…</instance>`',
        },
      },
      errors: [404],
    },
  },
  '/api/forms/{formId}/device_magic_database': {
    get: {
      summary: 'A page of the form\'s submissions, oldest first (the submissions database API)',
      auth: 'apiToken',
      suffixes: '.json',
      query: {
        page: query('page', 'The page, from 1'),
        per_page: query('per_page', 'Submissions per page'),
        device_id: query('device_id', 'Only this device\'s (its identifier)'),
        submitted_after: query('submitted_after', 'Submitted strictly after (ISO 8601 time with offset, or a date)'),
        submitted_before: query('submitted_before', 'Submitted strictly before'),
        from_date: query('from_date', 'Submitted at or after (a date: from its start, UTC)'),
        to_date: query('to_date', 'Submitted at or before (a date: to its end, UTC)'),
        submission_ids: { schema: { type: 'string', pattern: '^[1-9][0-9]*(,[1-9][0-9]*)*$' }, description: 'Comma-separated submission ids (at most 1,000)' },
        search: query('search', 'Text found in any answer, any case'),
      },
      answers: { 200: { description: 'The page', json: submissionDatabasePageView } },
      errors: [400, 404],
    },
  },
};
