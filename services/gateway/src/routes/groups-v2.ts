import type { Request, RequestHandler } from 'express';
import { AppError } from '@formcast/platform';
import { pageQuery } from '../http/page-query';
import type { SendCommand } from '../http/send-command';
import { listGroups } from './groups';

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

/** The v2 list (group.md's query: `filter`, `tags[]`, `items`, `page`) over the first generation's handler. */
export function listGroupsV2(send: SendCommand): RequestHandler {
  return listGroups(send, (req) => ({ filter: filterQuery(req), tags: tagsQuery(req), page: pageQuery(req, 'page'), items: pageQuery(req, 'items') }));
}
