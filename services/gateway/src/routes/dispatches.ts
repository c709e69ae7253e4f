import type { Request, RequestHandler, Response } from 'express';
import { pushCommands, type CreatedDispatchAnswer, type DispatchPageView, type DispatchView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pageQuery } from '../http/page-query';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import { renderDispatchesXml, renderDispatchXml } from '../render/dispatches-xml';
import { dispatchFromBody, dispatchUpdate } from './dispatch-body';
import type { SendCommand } from '../http/send-command';

/** `include_inputs`: `true`/`1` or `false`/`0`; absent is false. */
function includeInputs(req: Request): boolean {
  const value = req.query['include_inputs'];
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new AppError('invalid', 'include_inputs: must be true or false');
}

/** `page` (from 1) and `items` (per page) of the query; the push service applies the defaults (1 and 100). */
function pageOf(req: Request): { page?: number; items?: number } {
  return { page: pageQuery(req, 'page'), items: pageQuery(req, 'items') };
}

/** A page as documented, `{"dispatches":[…]}` or `<dispatches type="array">`; the total beside it in `X-Total-Count`. */
function sendPage(req: Request, res: Response, page: DispatchPageView): void {
  res.setHeader('X-Total-Count', String(page.total_count));
  if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderDispatchesXml(page.dispatches));
  else res.json({ dispatches: page.dispatches });
}

/**
 * One dispatch: `<dispatch>` in XML; in JSON bare on the shows, as v3/dispatch.md shows
 * `GET /api/v3/dispatches/<id>.json` (`{"id":296,…}`), and `{"dispatch":{…}}` on the create
 * and update answers, which the docs show no body of (Formcast's, kept for its clients).
 */
function sendDispatch(req: Request, res: Response, dispatch: DispatchView, json: 'bare' | 'wrapped'): void {
  // JSON unless the path or Accept asks for XML: a create or update answers so whatever its body was.
  if (responseFormat(req, 'json', { byContentType: false }) === 'xml') res.type('application/xml').send(renderDispatchXml(dispatch));
  else res.json(json === 'bare' ? dispatch : { dispatch });
}

const deviceRef = (req: Request) => String(req.params['deviceRef']);
const dispatchId = (req: Request) => pathId(req.params['dispatchId'], 'Dispatch');
const readDispatch = (send: SendCommand, req: Request, id: number, withInputs = false, ofDevice?: string) =>
  send<DispatchView>(req, pushCommands.getDispatch, { dispatchId: id, include_inputs: withInputs, deviceRef: ofDevice });

/*
 * The later generations of the push API (observed-behaviour, "Later generations of the push
 * API"): v3 dispatches and the v2 paths (pydevice 0.3.3's, a real client of the second
 * generation: the v3 handlers), over the same push commands as the oneshot paths, so a
 * dispatch created on any path is the same record on every other. Another organization's
 * device or dispatch is 404, as an unknown one. route-table/dispatches.ts mounts them.
 */

export const listDeviceDispatches = (send: SendCommand): RequestHandler => async (req, res) => {
  sendPage(req, res, await send<DispatchPageView>(req, pushCommands.listDeviceDispatches, { deviceRef: deviceRef(req), ...pageOf(req) }));
};

/** The create answers the dispatch's view itself (issue 24); a replay of an Idempotency-Key, or an older push service, does not: read then. */
export const createDispatch = (send: SendCommand): RequestHandler => async (req, res) => {
  const created = await send<CreatedDispatchAnswer>(req, pushCommands.createOneshot, { deviceRef: deviceRef(req), ...dispatchFromBody(req), answerWithDispatch: true });
  const dispatch = created.dispatch ?? (await readDispatch(send, req, created.id));
  res.status(202);
  sendDispatch(req, res, dispatch, 'wrapped');
};

export const revokeDeviceDispatches = (send: SendCommand): RequestHandler => async (req, res) => {
  await send(req, pushCommands.revokeAllOneshots, { deviceRef: deviceRef(req) });
  res.status(200).end();
};

/** The device-scoped show: bare, as the organization-wide one; another device's dispatch is 404. */
export const showDeviceDispatch = (send: SendCommand): RequestHandler => async (req, res) => {
  sendDispatch(req, res, await readDispatch(send, req, dispatchId(req), includeInputs(req), deviceRef(req)), 'bare');
};

export const updateDispatch = (send: SendCommand): RequestHandler => async (req, res) => {
  const id = dispatchId(req);
  await send(req, pushCommands.updateOneshot, await dispatchUpdate(req, send, deviceRef(req), id));
  const dispatch = await readDispatch(send, req, id);
  res.status(202);
  sendDispatch(req, res, dispatch, 'wrapped');
};

export const revokeDeviceDispatch = (send: SendCommand): RequestHandler => async (req, res) => {
  await send(req, pushCommands.revokeOneshot, { deviceRef: deviceRef(req), oneshotId: dispatchId(req) });
  res.status(200).end();
};

export const listOrganizationDispatches = (send: SendCommand): RequestHandler => async (req, res) => {
  sendPage(req, res, await send<DispatchPageView>(req, pushCommands.listOrganizationDispatches, pageOf(req)));
};

export const showDispatch = (send: SendCommand): RequestHandler => async (req, res) => {
  sendDispatch(req, res, await readDispatch(send, req, dispatchId(req), includeInputs(req)), 'bare');
};

export const revokeDispatch = (send: SendCommand): RequestHandler => async (req, res) => {
  await send(req, pushCommands.revokeDispatch, { dispatchId: dispatchId(req) });
  res.status(200).end();
};

/** Formcast has no web users: `/api/v3/users/…` is 404 saying so. */
export const noWebUsers = (): RequestHandler => () => {
  throw new AppError(
    'not_found',
    'Formcast has no web users, only devices: dispatches are read and sent through /api/v3/devices/<identifier>/dispatches and /api/v3/organization_dispatches',
  );
};
