import { Router, type Request, type Response } from 'express';
import { organizationOneshotsPageLimit, pushCommands, type OneshotCreatedView, type OutstandingOneshotView } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import { renderOneshotListXml, renderOutstandingOneXml, renderOutstandingXml } from '../render/oneshots-xml';
import { outstandingJsonWriter, outstandingXmlWriter } from '../render/outstanding-stream';
import { dispatchFromBody, dispatchUpdate } from './dispatch-body';
import type { RouteDeps } from './route-deps';

function sendOutstanding(req: Request, res: Response, list: OutstandingOneshotView[]): void {
  if (responseFormat(req, 'xml') === 'xml') res.type('application/xml').send(renderOutstandingXml(list));
  else res.json(list);
}

/** Push API, spec 4.4: `/clients/<device identifier or id>/oneshots…`. */
export function oneshotRoutes({ send }: RouteDeps): Router {
  const router = Router({ mergeParams: true });
  const deviceRef = (req: Request) => String(req.params['deviceRef']);

  router.post('/oneshots{.:format}', async (req, res) => {
    const created = await send<OneshotCreatedView>(req, pushCommands.createOneshot, { deviceRef: deviceRef(req), ...dispatchFromBody(req) });
    res.status(202);
    if (responseFormat(req, 'xml', { byContentType: false }) === 'xml') res.type('application/xml').send(renderOneshotListXml([created]));
    else res.json({ oneshot_list: [created] });
  });

  router.get('/oneshots{.:format}', async (req, res) => {
    sendOutstanding(req, res, await send<OutstandingOneshotView[]>(req, pushCommands.listDeviceOneshots, { deviceRef: deviceRef(req) }));
  });

  router.post('/oneshots/destroy_all{.:format}', async (req, res) => {
    await send(req, pushCommands.revokeAllOneshots, { deviceRef: deviceRef(req) });
    res.status(200).end();
  });

  router.put('/oneshots/:oneshotId{.:format}', async (req, res) => {
    const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
    const updated = await send<OutstandingOneshotView>(req, pushCommands.updateOneshot, await dispatchUpdate(req, send, deviceRef(req), oneshotId));
    if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderOutstandingOneXml(updated));
    else res.json(updated);
  });

  router.delete('/oneshots/:oneshotId{.:format}', async (req, res) => {
    const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
    await send(req, pushCommands.revokeOneshot, { deviceRef: deviceRef(req), oneshotId });
    res.status(200).end();
  });

  return router;
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
 * `GET /organizations/<org>/oneshots`: every outstanding oneshot of the organization. The
 * list is unpaginated (spec 2.8) and may be long, so it is never held whole: the push service
 * answers it a page at a time and each page is written out as it comes. A list of one page
 * goes out in one piece, with its length.
 */
export function organizationOneshotRoutes({ send }: RouteDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/oneshots{.:format}', async (req, res) => {
    const writer = responseFormat(req, 'xml') === 'xml' ? outstandingXmlWriter() : outstandingJsonWriter();
    const limit = organizationOneshotsPageLimit;
    const page = (afterId: number) => send<OutstandingOneshotView[]>(req, pushCommands.listOrganizationOneshots, { afterId, limit });
    // The first page before anything is written: a failure there is an ordinary error answer.
    let views = await page(0);
    let chunk = writer.open(views) + writer.items(views);
    res.status(200).setHeader('Content-Type', writer.contentType);
    try {
      while (views.length === limit) {
        await write(res, chunk);
        views = await page(views[views.length - 1]!.id);
        chunk = writer.items(views);
      }
    } catch (error) {
      // Part of the list is out: end the connection, so the client sees an incomplete answer, not a shorter list.
      req.context.logger.warn({ err: error }, 'organization listing stopped before its end');
      res.destroy();
      return;
    }
    res.end(chunk + writer.close());
  });
  return router;
}
