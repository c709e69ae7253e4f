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
  // group.md's query: `filter`, `items`, `page` (tags are not built yet).
  router.get('/api/v2/organizations/:orgId/groups{.:format}', ...ownOrganization, listGroups(send, (req) => ({ filter: filterQuery(req), page: pageQuery(req, 'page'), items: pageQuery(req, 'items') })));
  router.post('/api/organizations/:orgId/groups{.:format}', ...ownOrganization, createGroups(send));
  router.put('/api/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, updateGroup(send));
  router.delete('/api/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, deleteGroup(send));
  // Under /api/v2 too, as pydevice 0.3.3 writes them (with no suffix): the same handlers, 201 or 304 on create.
  router.post('/api/v2/organizations/:orgId/groups{.:format}', ...ownOrganization, createGroups(send));
  router.put('/api/v2/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, updateGroup(send));
  router.delete('/api/v2/organizations/:orgId/groups/:groupId{.:format}', ...ownOrganization, deleteGroup(send));
  return router;
}
