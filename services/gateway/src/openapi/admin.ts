import { z } from 'zod';
import { createOrganizationPayload, issueApiTokenPayload } from '@formcast/contracts';
import { schemaOf } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { apiTokenView, deadLetterQueueView, deadLetterView, enrollmentCodeView, issuedApiTokenView, organizationCreatedView, organizationView } from './views';

/** Administration behind the admin token (Bearer): organizations, API tokens, enrollment codes, dead letters. JSON only. */

const admin = (spec: Omit<OperationSpec, 'auth' | 'suffixes'>): OperationSpec => ({ ...spec, auth: 'adminToken', suffixes: 'none' });
const oneLetter = (key: string, description: string) => admin({
  summary: description,
  answers: { 200: { description: 'The dead letter', json: z.strictObject({ [key]: deadLetterView }) } },
  errors: [404],
});

export const adminPaths: PathTable = {
  '/admin/organizations': {
    get: admin({ summary: 'List organizations', answers: { 200: { description: 'Every organization', json: z.strictObject({ organizations: z.array(organizationView) }) } } }),
    post: admin({
      summary: 'Create an organization (with a Default group, a first API token and an enrollment code)',
      body: { json: schemaOf(createOrganizationPayload, 'input') },
      answers: { 201: { description: 'The organization, its enrollment code and API token (shown this once)', json: organizationCreatedView } },
      errors: [400],
    }),
  },
  '/admin/organizations/{orgId}/enrollment_code': {
    post: admin({
      summary: 'Rotate the enrollment code (the old one stops enrolling at once)',
      answers: { 201: { description: 'The new code, shown this once', json: enrollmentCodeView } },
      errors: [404],
    }),
  },
  '/admin/organizations/{orgId}/tokens': {
    get: admin({ summary: 'List API tokens', answers: { 200: { description: 'The tokens (never their values)', json: z.strictObject({ tokens: z.array(apiTokenView) }) } }, errors: [404] }),
    post: admin({
      summary: 'Issue an API token',
      body: { json: schemaOf(issueApiTokenPayload, 'input'), optional: true },
      answers: { 201: { description: 'The token, shown this once', json: issuedApiTokenView } },
      errors: [400, 404],
    }),
  },
  '/admin/organizations/{orgId}/tokens/{tokenId}': {
    delete: admin({ summary: 'Revoke an API token', answers: { 200: { description: 'Revoked (empty body)' } }, errors: [404] }),
  },
  '/admin/dead_letters': {
    get: admin({
      summary: 'The dead-letter queues and their depth',
      answers: { 200: { description: 'One entry per service with an event queue', json: z.strictObject({ dead_letter_queues: z.array(deadLetterQueueView) }) } },
    }),
  },
  '/admin/dead_letters/{queue}': {
    get: admin({
      summary: 'A queue\'s dead letters',
      answers: {
        200: { description: 'The queue\'s letters', json: z.strictObject({ queue: z.string(), depth: z.number().int().min(0), dead_letters: z.array(deadLetterView) }) },
      },
      errors: [404],
    }),
  },
  '/admin/dead_letters/{queue}/{eventId}': {
    get: oneLetter('dead_letter', 'Show a dead letter'),
    delete: oneLetter('dropped', 'Drop a dead letter'),
  },
  '/admin/dead_letters/{queue}/{eventId}/replay': {
    post: oneLetter('replayed', 'Replay a dead letter to its service (then removed)'),
  },
};
