import type { Request, RequestHandler } from 'express';
import { bulkDispatchMaxItems, pushCommands, type BulkDispatchResult } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { isPlainObject } from '../http/json-object';
import { readBody } from '../http/request-body';
import { responseFormat } from '../http/response-format';
import { renderBulkDispatchResultsXml } from '../render/bulk-dispatch-results-xml';
import { readBulkDispatchesXml } from '../xml/bulk-dispatches-xml';
import type { SendCommand } from '../http/send-command';

const jsonShape = '{"dispatches": [{"device", "form_namespace", "form_name", "form_description", "payload", "scheduled_at", "location", "address", "geofence_radius"}, …]}';

/** The items of the body, JSON or XML. Only the request's shape is checked here; each item is the push service's to judge, alone. */
function dispatchesOfBody(req: Request): { dispatches: unknown[]; fromXml: boolean } {
  const body = readBody(req);
  if (body.kind === 'xml') return { dispatches: readBulkDispatchesXml(body.value), fromXml: true };
  if (body.kind !== 'json') throw new AppError('invalid', `Send the dispatches as JSON ${jsonShape} or as XML <dispatches type="array"><dispatch>…</dispatch></dispatches>`);
  if (!isPlainObject(body.value) || !Array.isArray(body.value['dispatches'])) throw new AppError('invalid', `Expected a JSON object ${jsonShape}`);
  const unknown = Object.keys(body.value).filter((key) => key !== 'dispatches');
  if (unknown.length > 0) throw new AppError('invalid', `${unknown.join(', ')}: unknown field; the body is ${jsonShape}`);
  return { dispatches: body.value['dispatches'], fromXml: false };
}

/** A request the push service would refuse as a whole, refused before it crosses the bus. */
function checkCount(dispatches: unknown[]): void {
  if (dispatches.length === 0) throw new AppError('invalid', 'dispatches: give at least one');
  if (dispatches.length > bulkDispatchMaxItems) throw new AppError('invalid', `dispatches: at most ${bulkDispatchMaxItems} in one request, not ${dispatches.length}`);
  const notObject = dispatches.findIndex((item) => !isPlainObject(item));
  if (notObject !== -1) throw new AppError('invalid', `dispatches[${notObject}]: each dispatch must be an object {"device", "form_namespace", "payload", …}`);
}

/**
 * `POST /api/v3/dispatches/bulk.(json|xml)`, a Formcast extension: up to 1,000 dispatches,
 * each to the device its `device` (identifier) names, in one request and one bus command.
 * 200 with one result per item, in order: `{"status":202,"id","namespace","name"}`, or the
 * status and error the item would get alone. Each item is created or refused alone.
 */
export const createDispatches = (send: SendCommand): RequestHandler => async (req, res) => {
  const format = responseFormat(req, 'json');
  const { dispatches, fromXml } = dispatchesOfBody(req);
  checkCount(dispatches);
  const results = await send<BulkDispatchResult[]>(req, pushCommands.createDispatches, { dispatches, fromXml });
  res.status(200);
  if (format === 'xml') res.type('application/xml').send(renderBulkDispatchResultsXml(results));
  else res.json({ results });
};
