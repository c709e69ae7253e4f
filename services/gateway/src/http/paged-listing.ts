import type { Request, Response } from 'express';
import { oneshotsDefaultPerPage, oneshotsMaxPerPage } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { OutstandingListWriter } from '../render/outstanding-stream';
import { pageQuery } from './page-query';
import { cutShort } from './cut-short';

/** The page a client asked for with `page` (from 1) and `per_page` (default 100, at most 1000), as an offset and a limit; undefined when it asked for neither. */
export function requestedPage(req: Request): { page: number; perPage: number; offset: number; limit: number } | undefined {
  const page = pageQuery(req, 'page');
  const perPageAsked = pageQuery(req, 'per_page');
  if (page === undefined && perPageAsked === undefined) return undefined;
  if (perPageAsked !== undefined && perPageAsked > oneshotsMaxPerPage) throw new AppError('invalid', `per_page: must be at most ${oneshotsMaxPerPage}`);
  const perPage = perPageAsked ?? oneshotsDefaultPerPage;
  const current = page ?? 1;
  return { page: current, perPage, offset: (current - 1) * perPage, limit: perPage };
}

/** A `Link` header to the next page (rel="next") when this one is full: a shorter page is the last. */
export function linkToNextPage(req: Request, res: Response, asked: { page: number; perPage: number }, count: number): void {
  if (count < asked.perPage) return;
  const url = new URL(req.originalUrl, 'http://here');
  url.searchParams.set('page', String(asked.page + 1));
  url.searchParams.set('per_page', String(asked.perPage));
  res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
}

/** Writes a chunk, waiting for the socket to take it; rejects when the client has gone. */
function write(res: Response, chunk: string): Promise<void> {
  if (res.destroyed) return Promise.reject(new Error('The client closed the connection'));
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      res.off('drain', drained);
      res.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const drained = () => settle();
    const closed = () => settle(new Error('The client closed the connection'));
    res.on('drain', drained);
    res.on('close', closed);
  });
}

/**
 * An unpaged listing (spec 2.8) that may be long, never held whole: `fetchPage(afterId)`
 * answers the items with an id above `afterId`, at most `limit`; each page is written out as
 * it comes, waiting for the client to take the one before. A list of one page goes out in one
 * piece, with its length. The first page comes before anything is written, so a failure
 * there is an ordinary error answer; a failure later ends the connection (the client sees an
 * incomplete answer, never a shorter list).
 */
export async function streamListing<T extends { id: number }>(
  req: Request,
  res: Response,
  writer: OutstandingListWriter<T>,
  limit: number,
  fetchPage: (afterId: number) => Promise<T[]>,
): Promise<void> {
  let items = await fetchPage(0);
  let chunk = writer.open(items) + writer.items(items);
  res.status(200).setHeader('Content-Type', writer.contentType);
  try {
    while (items.length === limit) {
      await write(res, chunk);
      items = await fetchPage(items[items.length - 1]!.id);
      chunk = writer.items(items);
    }
  } catch (error) {
    req.context.logger.warn({ err: error }, 'listing stopped before its end');
    cutShort(res);
    return;
  }
  res.end(chunk + writer.close());
}
