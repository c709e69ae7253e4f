import type { Request, RequestHandler, Response } from 'express';
import { organizationOneshotsPageLimit, pushCommands, type OneshotCreatedView, type OutstandingOneshotView } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import { renderOneshotListXml, renderOutstandingOneXml } from '../render/oneshots-xml';
import { outstandingJsonWriter, outstandingXmlWriter, type OutstandingListWriter } from '../render/outstanding-stream';
import { linkToNextPage, requestedPage, streamListing } from '../http/paged-listing';
import { dispatchFromBody, dispatchUpdate } from './dispatch-body';
import type { SendCommand } from '../http/send-command';

/** The device the path names: push API, spec 4.4, `/clients/<device identifier or id>/oneshots…`. */
const deviceRef = (req: Request) => String(req.params['deviceRef']);

export const createOneshot = (send: SendCommand): RequestHandler => async (req, res) => {
  const created = await send<OneshotCreatedView>(req, pushCommands.createOneshot, { deviceRef: deviceRef(req), ...dispatchFromBody(req) });
  res.status(202);
  if (responseFormat(req, 'xml', { byContentType: false }) === 'xml') res.type('application/xml').send(renderOneshotListXml([created]));
  else res.json({ oneshot_list: [created] });
};

/** Unpaged (spec 2.8) and streamed, a page of the push service's at a time; `page` / `per_page`: that page alone. */
export const listDeviceOneshots = (send: SendCommand): RequestHandler => async (req, res) => {
  const writer = responseFormat(req, 'xml') === 'xml' ? outstandingXmlWriter() : outstandingJsonWriter();
  const list = (window: { afterId?: number; offset?: number; limit: number }) =>
    send<OutstandingOneshotView[]>(req, pushCommands.listDeviceOneshots, { deviceRef: deviceRef(req), ...window });
  const asked = requestedPage(req);
  if (asked) return sendPage(req, res, writer, asked, await list({ offset: asked.offset, limit: asked.limit }));
  const limit = organizationOneshotsPageLimit;
  await streamListing(req, res, writer, limit, (afterId) => list({ afterId, limit }));
};

export const revokeAllOneshots = (send: SendCommand): RequestHandler => async (req, res) => {
  await send(req, pushCommands.revokeAllOneshots, { deviceRef: deviceRef(req) });
  res.status(200).end();
};

export const updateOneshot = (send: SendCommand): RequestHandler => async (req, res) => {
  const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
  const updated = await send<OutstandingOneshotView>(req, pushCommands.updateOneshot, await dispatchUpdate(req, send, deviceRef(req), oneshotId));
  if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderOutstandingOneXml(updated));
  else res.json(updated);
};

export const revokeOneshot = (send: SendCommand): RequestHandler => async (req, res) => {
  const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
  await send(req, pushCommands.revokeOneshot, { deviceRef: deviceRef(req), oneshotId });
  res.status(200).end();
};

/**
 * `GET /organizations/<org>/oneshots`: every outstanding oneshot of the organization, unpaged
 * (spec 2.8) and streamed page by page from the push service; or, with `page` / `per_page`,
 * that page alone (a `Link` to the next when it is full).
 */
export const listOrganizationOneshots = (send: SendCommand): RequestHandler => async (req, res) => {
  const writer = responseFormat(req, 'xml') === 'xml' ? outstandingXmlWriter() : outstandingJsonWriter();
  const list = (payload: { afterId?: number; offset?: number; limit: number }) => send<OutstandingOneshotView[]>(req, pushCommands.listOrganizationOneshots, payload);
  const asked = requestedPage(req);
  if (asked) return sendPage(req, res, writer, asked, await list({ offset: asked.offset, limit: asked.limit }));
  const limit = organizationOneshotsPageLimit;
  await streamListing(req, res, writer, limit, (afterId) => list({ afterId, limit }));
};

/** One page a client asked for, in the listing's own shape. */
export function sendPage<T>(req: Request, res: Response, writer: OutstandingListWriter<T>, asked: { page: number; perPage: number }, items: T[]): void {
  linkToNextPage(req, res, asked, items.length);
  res.status(200).type(writer.contentType).send(writer.open(items) + writer.items(items) + writer.close());
}
