import { z } from 'zod';
import { createOrganizationPayload, issueApiTokenPayload } from '@formcast/contracts';
import { schemaOf } from '../openapi/json-schema';
import { apiTokenView, deadLetterQueueView, deadLetterView, enrollmentCodeView, issuedApiTokenView, organizationCreatedView, organizationView } from '../openapi/views';
import { createOrganization, issueApiToken, listApiTokens, listOrganizations, revokeApiToken, rotateEnrollmentCode } from '../routes/admin';
import { listDeadLetterQueues, listDeadLetters, oneDeadLetter } from '../routes/admin-dead-letters';
import { declareArea, revokedAnswer, type RouteSpec } from './declare';

/** The battery's dead letter: a queue that exists, an event id that does not. */
const someLetter = '/admin/dead_letters/push/00000000-0000-4000-8000-000000000000';

/** Show, replay or drop one dead letter: the answer names what was done. */
function oneLetter(method: 'get' | 'post' | 'delete', path: string, action: Parameters<typeof oneDeadLetter>[0], summary: string, hostilePath: string): RouteSpec {
  return {
    method,
    path,
    suffixes: 'none',
    openapi: { summary, answers: { 200: { description: 'The dead letter', json: z.strictObject({ [action]: deadLetterView }) } } },
    hostile: [{ path: hostilePath }],
    handler: ({ deadLetters }) => oneDeadLetter(action)(deadLetters),
  };
}

/**
 * Administration behind the admin token (Bearer): organizations, API tokens, enrollment codes,
 * dead letters by queue (a service's name). JSON only; paths below `/organizations/<org>` act
 * as that organization (routes/admin.ts's scope, mounted ahead of these).
 */
export const admin = declareArea({
  name: 'admin',
  mount: '/admin',
  auth: 'adminToken',
  tag: 'Administration',
  suffixes: 'none',
  routes: [
    {
      method: 'get',
      path: '/organizations',
      openapi: { summary: 'List organizations', answers: { 200: { description: 'Every organization', json: z.strictObject({ organizations: z.array(organizationView) }) } } },
      handler: ({ send }) => listOrganizations(send),
    },
    {
      method: 'post',
      path: '/organizations',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Create an organization (with a Default group, a first API token and an enrollment code)',
        body: { json: schemaOf(createOrganizationPayload, 'input') },
        answers: { 201: { description: 'The organization, its enrollment code and API token (shown this once)', json: organizationCreatedView } },
      },
      hostile: [{ json: 'organization' }],
      handler: ({ send }) => createOrganization(send),
    },
    {
      method: 'post',
      path: '/organizations/:orgId/enrollment_code',
      openapi: {
        summary: 'Rotate the enrollment code (the old one stops enrolling at once)',
        answers: { 201: { description: 'The new code, shown this once', json: enrollmentCodeView } },
      },
      handler: ({ send }) => rotateEnrollmentCode(send),
    },
    {
      method: 'get',
      path: '/organizations/:orgId/tokens',
      openapi: { summary: 'List API tokens', answers: { 200: { description: 'The tokens (never their values)', json: z.strictObject({ tokens: z.array(apiTokenView) }) } } },
      handler: ({ send }) => listApiTokens(send),
    },
    {
      method: 'post',
      path: '/organizations/:orgId/tokens',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Issue an API token',
        body: { json: schemaOf(issueApiTokenPayload, 'input'), optional: true },
        answers: { 201: { description: 'The token, shown this once', json: issuedApiTokenView } },
      },
      hostile: [{ json: 'tokenLabel' }],
      handler: ({ send }) => issueApiToken(send),
    },
    {
      method: 'delete',
      path: '/organizations/:orgId/tokens/:tokenId',
      openapi: { summary: 'Revoke an API token', answers: revokedAnswer },
      handler: ({ send }) => revokeApiToken(send),
    },
    {
      method: 'get',
      path: '/dead_letters',
      openapi: {
        summary: 'The dead-letter queues and their depth',
        answers: { 200: { description: 'One entry per service with an event queue', json: z.strictObject({ dead_letter_queues: z.array(deadLetterQueueView) }) } },
      },
      handler: ({ deadLetters }) => listDeadLetterQueues(deadLetters),
    },
    {
      method: 'get',
      path: '/dead_letters/:queue',
      openapi: {
        summary: "A queue's dead letters",
        answers: {
          200: { description: "The queue's letters", json: z.strictObject({ queue: z.string(), depth: z.number().int().min(0), dead_letters: z.array(deadLetterView) }) },
        },
      },
      hostile: [{ path: '/admin/dead_letters/push' }],
      handler: ({ deadLetters }) => listDeadLetters(deadLetters),
    },
    oneLetter('get', '/dead_letters/:queue/:eventId', 'dead_letter', 'Show a dead letter', someLetter),
    oneLetter('post', '/dead_letters/:queue/:eventId/replay', 'replayed', 'Replay a dead letter to its service (then removed)', `${someLetter}/replay`),
    oneLetter('delete', '/dead_letters/:queue/:eventId', 'dropped', 'Drop a dead letter', someLetter),
  ],
});
