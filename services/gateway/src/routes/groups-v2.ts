import { Router, type Request, type RequestHandler } from 'express';
import { requireOwnOrganization } from '../http/organization-scope';
import { pageQuery } from '../http/page-query';
import { AppError } from '@formcast/platform';
import { createGroups, deleteGroup, listGroups, updateGroup } from './groups';
import type { RouteDeps } from './route-deps';

/** `filter`: once, as text. */
function filterQuery(req: Request): string | undefined {
  const value = req.query['filter'];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError('invalid', 'filter: give it once, as text');
  if (value.length > 255) throw new AppError('invalid', 'filter: at most 255 characters');
  return value;
}

/** `tags[]=health&tags[]=food` (group.md), or `tags=health` once: the tags a listed group has any of. */
function tagsQuery(req: Request): string[] | undefined {
  // The simple query parser keeps `tags[]` as its own key.
  const given = [req.query['tags[]'], req.query['tags']].filter((value) => value !== undefined);
  if (given.length === 0) return undefined;
  const tags = given.flatMap((value) => (Array.isArray(value) ? value : [value]));
  if (!tags.every((tag) => typeof tag === 'string')) throw new AppError('invalid', 'tags: give tag names, as tags[]=health&tags[]=food');
  if (tags.length > 100) throw new AppError('invalid', 'tags: at most 100');
  if (tags.some((tag) => (tag as string).length > 255)) throw new AppError('invalid', 'tags: each at most 255 characters');
  return (tags as string[]).filter((tag) => tag !== '');
}

export interface GroupV2RouteDeps extends RouteDeps {
  /** The organization API token check (`requireApiToken`), run for these routes only. */
  authenticate: RequestHandler;
}

/**
 * Groups v2 (observed-behaviour, "Later generations of the other APIs"): the list at
 * /api/v2/organizations/<org>/groups; create, update and delete at
 * /api/organizations/<org>/groups…. The first generation's handlers and shapes, over the
 * same commands: a group written on either generation is the one record on both. Another
 * organization's id in the path is 404, as on /organizations/<org>/….
 */
export function groupV2Routes({ send, authenticate }: GroupV2RouteDeps): Router {
  const router = Router();
  const ownOrganization = [authenticate, requireOwnOrganization];
  // group.md's query: `filter`, `tags[]`, `items`, `page`.
  router.get(
    '/api/v2/organizations/:orgId/groups{.:format}',
    ...ownOrganization,
    listGroups(send, (req) => ({ filter: filterQuery(req), tags: tagsQuery(req), page: pageQuery(req, 'page'), items: pageQuery(req, 'items') })),
  );
  router.post('/api/organizations/:orgId/groups{.:format}', ...ownOrganization, createGroups(send));
  router.put('/api/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, updateGroup(send));
  router.delete('/api/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, deleteGroup(send));
  // Under /api/v2 too, as pydevice 0.3.3 writes them (with no suffix): the same handlers, 201 or 304 on create.
  router.post('/api/v2/organizations/:orgId/groups{.:format}', ...ownOrganization, createGroups(send));
  router.put('/api/v2/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, updateGroup(send));
  router.delete('/api/v2/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, deleteGroup(send));
  return router;
}
