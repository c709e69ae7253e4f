import { z } from 'zod';
import { createOrganizationPayload, issueApiTokenPayload } from '@formcast/contracts';
import { schemaOf } from '../openapi/json-schema';
import { answerOf } from '../openapi/operation-parts';
import { apiTokenView, deadLetterQueueView, deadLetterView, enrollmentCodeView, issuedApiTokenView, organizationCreatedView, organizationView } from '../openapi/views';
import { createOrganization, issueApiToken, listApiTokens, listOrganizations, revokeApiToken, rotateEnrollmentCode } from '../routes/admin';
import { listDeadLetterQueues, listDeadLetters, oneDeadLetter } from '../routes/admin-dead-letters';
import { declareArea, type RouteSpec } from './declare';
import { read, revocation, write } from './route-kinds';

/** The battery's dead letter: a queue that exists, an event id that does not. */
const someLetter = '/admin/dead_letters/push/00000000-0000-4000-8000-000000000000';

/** Show, replay or drop one dead letter: the answer names what was done. */
function oneLetter(method: 'get' | 'post' | 'delete', path: string, action: Parameters<typeof oneDeadLetter>[0], summary: string, hostilePath: string): RouteSpec {
  return {
    method,
    path,
    suffixes: 'none',
    openapi: { summary, answers: { 200: answerOf('The dead letter', { [action]: deadLetterView }) } },
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
    read('/organizations', 'List organizations', answerOf('Every organization', { organizations: z.array(organizationView) }), ({ send }) => listOrganizations(send)),
    write('post', '/organizations', [{ json: 'organization' }], ({ send }) => createOrganization(send), {
      summary: 'Create an organization (with a Default group, a first API token and an enrollment code)',
      body: { json: schemaOf(createOrganizationPayload, 'input') },
      answers: { 201: { description: 'The organization, its enrollment code and API token (shown this once)', json: organizationCreatedView } },
    }),
    {
      method: 'post',
      path: '/organizations/:orgId/enrollment_code',
      openapi: {
        summary: 'Rotate the enrollment code (the old one stops enrolling at once)',
        answers: { 201: { description: 'The new code, shown this once', json: enrollmentCodeView } },
      },
      handler: ({ send }) => rotateEnrollmentCode(send),
    },
    read('/organizations/:orgId/tokens', 'List API tokens', answerOf('The tokens (never their values)', { tokens: z.array(apiTokenView) }), ({ send }) => listApiTokens(send)),
    write('post', '/organizations/:orgId/tokens', [{ json: 'tokenLabel' }], ({ send }) => issueApiToken(send), {
      summary: 'Issue an API token',
      body: { json: schemaOf(issueApiTokenPayload, 'input'), optional: true },
      answers: { 201: { description: 'The token, shown this once', json: issuedApiTokenView } },
    }),
    revocation('delete', '/organizations/:orgId/tokens/:tokenId', 'Revoke an API token', ({ send }) => revokeApiToken(send)),
    read(
      '/dead_letters',
      'The dead-letter queues and their depth',
      answerOf('One entry per service with an event queue', { dead_letter_queues: z.array(deadLetterQueueView) }),
      ({ deadLetters }) => listDeadLetterQueues(deadLetters),
    ),
    read(
      '/dead_letters/:queue',
      "A queue's dead letters",
      answerOf("The queue's letters", { queue: z.string(), depth: z.number().int().min(0), dead_letters: z.array(deadLetterView) }),
      ({ deadLetters }) => listDeadLetters(deadLetters),
      { hostile: [{ path: '/admin/dead_letters/push' }] },
    ),
    oneLetter('get', '/dead_letters/:queue/:eventId', 'dead_letter', 'Show a dead letter', someLetter),
    oneLetter('post', '/dead_letters/:queue/:eventId/replay', 'replayed', 'Replay a dead letter to its service (then removed)', `${someLetter}/replay`),
    oneLetter('delete', '/dead_letters/:queue/:eventId', 'dropped', 'Drop a dead letter', someLetter),
  ],
});
