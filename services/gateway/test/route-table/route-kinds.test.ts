import type { RequestHandler } from 'express';
import { z } from 'zod';
import { answerOf, pageQuery, wrappedBody } from '../../src/openapi/operation-parts';
import { declareRoute } from '../../src/route-table/declare';
import { action, deletedAnswer, deletion, read, revocation, revokedAnswer, write } from '../../src/route-table/route-kinds';

const handler = () => ((_req, _res, next) => next()) as RequestHandler;

describe('The kinds of route (route-table/route-kinds.ts)', () => {
  it('makes a read a GET answering its 200, with what the route says besides merged into its operation', () => {
    const ok = { description: 'The thing' };
    expect(read('/things/:deviceId', 'Show a thing', ok, handler, { openapi: { errors: [403] }, hostile: [{}] })).toEqual({
      method: 'get',
      path: '/things/:deviceId',
      openapi: { summary: 'Show a thing', answers: { 200: ok }, errors: [403] },
      hostile: [{}],
      handler,
    });
  });

  it('answers a deletion and a revocation with 200 and no body, and an action with the answers it names', () => {
    expect(deletion('/a', 'Delete', handler).openapi).toEqual({ summary: 'Delete', answers: deletedAnswer });
    expect(revocation('post', '/a/destroy_all', 'Revoke', handler)).toMatchObject({ method: 'post', openapi: { answers: revokedAnswer } });
    expect(action('put', '/a/lock', 'Lock', { 202: { description: 'Locked' } }, handler).openapi.answers).toEqual({ 202: { description: 'Locked' } });
  });

  it("leaves a route's derived defaults to declare.ts: a kind adds no errors, ids or battery case it was not given", () => {
    const declared = declareRoute({ mount: '/organizations/:orgId', suffixes: '.json' }, deletion('/devices/:deviceId', 'Delete', handler));
    expect([declared.openapi.errors, declared.pathIds?.map((id) => id.name), declared.hostile]).toEqual([[404], ['deviceId'], [{ suffix: '.json' }]]);
  });

  it('gives a write its battery cases and its wiring, and a body limit from its operation', () => {
    const spec = write('post', '/images', [{ json: 'submissionImage' }], handler, { summary: 's', body: { other: { '*/*': 'bytes' } }, answers: {} }, { body: 'SUBMISSION_IMAGE_MAX_BYTES' });
    expect([spec.hostile, spec.body]).toEqual([[{ json: 'submissionImage' }], 'SUBMISSION_IMAGE_MAX_BYTES']);
    expect(declareRoute({ mount: '' }, write('put', '/a', [{ json: 'x' }], handler, { summary: 's', body: { json: {} }, answers: {} })).body).toBe('BODY_LIMIT_BYTES');
  });
});

describe("The operations' shared parts (openapi/operation-parts.ts)", () => {
  it('wraps an answer\'s records in their names, with its XML in words when given', () => {
    const answer = answerOf('The device', { device: z.string() }, '`<device/>`');
    expect(answer.description).toBe('The device');
    expect((answer.json as z.ZodType).safeParse({ device: 'a' }).success).toBe(true);
    expect((answer.json as z.ZodType).safeParse({ device: 'a', other: 1 }).success).toBe(false);
    expect(answer.xml).toBe('`<device/>`');
    expect('xml' in answerOf('The device', { device: z.string() })).toBe(false);
  });

  it("wraps a body's fields in the record's name, and pages a list by `page` and its size's name", () => {
    expect(wrappedBody('group', { name: { type: 'string' } })).toEqual({ type: 'object', properties: { group: { type: 'object', properties: { name: { type: 'string' } } } }, required: ['group'] });
    expect(wrappedBody('resource', {}, ['file'])).toMatchObject({ properties: { resource: { required: ['file'] } } });
    const query = pageQuery(z.object({ page: z.number().int().min(1), items: z.number().int().min(1).max(100) }), 'items', 'Things per page');
    expect(Object.keys(query)).toEqual(['page', 'items']);
    expect(query['items']).toEqual({ schema: { type: 'integer', minimum: 1, maximum: 100 }, description: 'Things per page' });
  });
});
