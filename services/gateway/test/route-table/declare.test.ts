import type { RequestHandler } from 'express';
import { declareArea, declareRoute, type RouteSpec } from '../../src/route-table/declare';
import { pathIds } from '../../src/route-table/path-ids';

const handler = () => ((_req, _res, next) => next()) as RequestHandler;
const route = (spec: Partial<RouteSpec> & Pick<RouteSpec, 'method' | 'path'>): RouteSpec => ({ openapi: { summary: 's', answers: {} }, handler, ...spec });
const names = (ids: { name: string }[] | undefined) => ids?.map((id) => id.name);

describe("The route table's derived defaults (route-table/declare.ts)", () => {
  it("takes the path's ids from its parameters, in order, the mount's included; a destination's lookup stands for its form", () => {
    expect(declareRoute({ mount: '/clients/:deviceRef' }, route({ method: 'put', path: '/oneshots/:oneshotId' })).pathIds).toEqual([pathIds.deviceRef, pathIds.outstandingOneshot]);
    expect(declareRoute({ mount: '/api/forms/:formId' }, route({ method: 'get', path: '/destinations' })).pathIds).toEqual([pathIds.form]);
    expect(declareRoute({ mount: '/api/forms/:formId' }, route({ method: 'get', path: '/destinations/:destinationId/deliveries/:deliveryId' })).pathIds).toEqual([pathIds.destination]);
    expect(names(declareRoute({ mount: '/organizations/:orgId' }, route({ method: 'get', path: '/groups' })).pathIds)).toBeUndefined();
  });

  it("lets an area name its own lookup of a parameter, and a route its own ids (none included)", () => {
    expect(declareRoute({ mount: '/device', pathIdOf: { oneshotId: pathIds.ownOneshot } }, route({ method: 'get', path: '/oneshots/:oneshotId' })).pathIds).toEqual([pathIds.ownOneshot]);
    expect('pathIds' in declareRoute({ mount: '' }, route({ method: 'get', path: '/api/v3/dispatches/:dispatchId', pathIds: [] }))).toBe(false);
  });

  it("defaults suffixes to the area's, else JSON or XML, and the battery's case to the first suffix", () => {
    const json = declareRoute({ mount: '', suffixes: '.json' }, route({ method: 'get', path: '/a' }));
    expect([json.suffixes, json.hostile]).toEqual(['.json', [{ suffix: '.json' }]]);
    const either = declareRoute({ mount: '' }, route({ method: 'get', path: '/a' }));
    expect([either.suffixes, either.hostile]).toEqual(['.json|.xml', [{ suffix: '.json' }]]);
    const none = declareRoute({ mount: '' }, route({ method: 'get', path: '/a', suffixes: 'none' }));
    expect(none.hostile).toEqual([{}]);
    expect(declareRoute({ mount: '' }, route({ method: 'get', path: '/a', hostile: [{ query: 'q=1' }] })).hostile).toEqual([{ query: 'q=1' }]);
  });

  it('reads an operation with a body up to BODY_LIMIT_BYTES unless the route names its limit, and a route without one takes none', () => {
    const body = { json: { type: 'object' } };
    expect(declareRoute({ mount: '' }, route({ method: 'post', path: '/y', openapi: { summary: 's', body, answers: {} } })).body).toBe('BODY_LIMIT_BYTES');
    expect(declareRoute({ mount: '' }, route({ method: 'post', path: '/y', body: 'RESOURCE_MAX_BYTES', openapi: { summary: 's', body, answers: {} } })).body).toBe('RESOURCE_MAX_BYTES');
    expect('body' in declareRoute({ mount: '' }, route({ method: 'post', path: '/y' }))).toBe(false);
    expect(declareRoute({ mount: '' }, route({ method: 'put', path: '/y', openapi: { summary: 's', body, answers: {} } })).openapi.errors).toEqual([400]);
  });

  it('answers 400 for a route with a body and 404 for a path with parameters, unless the route names its errors', () => {
    expect(declareRoute({ mount: '/x/:formId' }, route({ method: 'post', path: '/y', body: 'BODY_LIMIT_BYTES' })).openapi.errors).toEqual([400, 404]);
    expect(declareRoute({ mount: '' }, route({ method: 'post', path: '/y', body: 'BODY_LIMIT_BYTES' })).openapi.errors).toEqual([400]);
    expect(declareRoute({ mount: '' }, route({ method: 'get', path: '/y' })).openapi.errors).toBeUndefined();
    expect(declareRoute({ mount: '/x/:formId' }, route({ method: 'get', path: '/y', openapi: { summary: 's', answers: {}, errors: [403] } })).openapi.errors).toEqual([403]);
  });

  it("defaults an area's authentication to the API token and leaves out what is only the routes' defaults", () => {
    const area = declareArea({ name: 'a', mount: '', tag: 't', suffixes: 'none', pathIdOf: {}, routes: [route({ method: 'get', path: '/a' })] });
    expect(area.auth).toBe('apiToken');
    expect(Object.keys(area).sort()).toEqual(['auth', 'mount', 'name', 'routes', 'tag']);
    expect(area.routes[0]!.suffixes).toBe('none');
  });
});
