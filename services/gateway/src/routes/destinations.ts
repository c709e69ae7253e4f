import type { Request, RequestHandler } from 'express';
import { AppError } from '@formcast/platform';
import {
  deliveryCommands,
  type DeliveryDocumentView,
  type DeliveryListView,
  type DeliveryView,
  type DestinationDetailView,
  type DestinationView,
  type DestinationWithSecretView,
} from '@formcast/contracts';
import { jsonObjectBody } from '../http/json-object';
import { pageQuery } from '../http/page-query';
import { pathId } from '../http/path-params';
import { readBody } from '../http/request-body';
import type { FetchWithAttachment, SendCommand } from '../http/send-command';
import { contentDisposition } from '../render/resources-file';

const bodyShape = '{"destination":{"description","format_selection","transport_selection"},"<format>":{…},"<transport>":{…}}';

const formIdOf = (req: Request) => pathId(req.params['formId'], 'Form');
const destinationIdsOf = (req: Request) => ({ formId: formIdOf(req), destinationId: pathId(req.params['destinationId'], 'Destination') });

/** `rotate_secret` takes an optional `{"overlap_seconds": n}`; without a body, the default overlap. */
function rotationOptions(req: Request): { overlap_seconds?: unknown } {
  const body = readBody(req);
  if (body.kind === 'empty') return {};
  const options = jsonObjectBody(req, '{"overlap_seconds": <seconds the old secret keeps signing>}, or no body');
  return options['overlap_seconds'] === undefined ? {} : { overlap_seconds: options['overlap_seconds'] };
}

/**
 * The Destinations API (observed-behaviour "Where submissions go"), JSON only, under
 * `/api/forms/<form_id>/destinations`: list, show, create, update, delete as the real
 * product, and ours beside them: rotate the signing secret, the delivery log, redeliver.
 * The delivery service answers 404 for a form of another organization, on every route.
 */
export const listDestinations = (send: SendCommand): RequestHandler => async (req, res) => {
  const destinations = await send<DestinationView[]>(req, deliveryCommands.listDestinations, { formId: formIdOf(req) });
  res.json({ destinations });
};

/** The only answer besides rotate_secret that shows the signing secret. */
export const createDestination = (send: SendCommand): RequestHandler => async (req, res) => {
  const body = jsonObjectBody(req, bodyShape);
  const destination = await send<DestinationWithSecretView>(req, deliveryCommands.createDestination, { ...body, formId: formIdOf(req) });
  res.status(201).json({ destination });
};

export const showDestination = (send: SendCommand): RequestHandler => async (req, res) => {
  res.json({ destination: await send<DestinationDetailView>(req, deliveryCommands.getDestination, destinationIdsOf(req)) });
};

export const updateDestination = (send: SendCommand): RequestHandler => async (req, res) => {
  const body = jsonObjectBody(req, '{"destination":{"description","active"},"<its transport>":{…}}');
  const destination = await send<DestinationDetailView>(req, deliveryCommands.updateDestination, { ...body, ...destinationIdsOf(req) });
  res.json({ destination });
};

export const deleteDestination = (send: SendCommand): RequestHandler => async (req, res) => {
  await send(req, deliveryCommands.deleteDestination, destinationIdsOf(req));
  res.status(200).end();
};

export const rotateDestinationSecret = (send: SendCommand): RequestHandler => async (req, res) => {
  const payload = { ...rotationOptions(req), ...destinationIdsOf(req) };
  res.json({ destination: await send<DestinationWithSecretView>(req, deliveryCommands.rotateDestinationSecret, payload) });
};

/** Paged as the submissions database API: `page` and `per_page`, and the same counts. */
export const listDeliveries = (send: SendCommand): RequestHandler => async (req, res) => {
  const payload = { ...destinationIdsOf(req), page: pageQuery(req, 'page'), per_page: pageQuery(req, 'per_page') };
  const list = await send<DeliveryListView>(req, deliveryCommands.listDeliveries, payload);
  res.json({
    per_page: list.per_page,
    current_page: list.current_page,
    total_pages: list.total_pages,
    current_count: list.deliveries.length,
    total_count: list.total_count,
    deliveries: list.deliveries,
  });
};

export const redeliver = (send: SendCommand): RequestHandler => async (req, res) => {
  const deliveryId = pathId(req.params['deliveryId'], 'Delivery');
  const delivery = await send<DeliveryView>(req, deliveryCommands.redeliver, { ...destinationIdsOf(req), deliveryId });
  res.status(202).json({ delivery });
};

/** What a delivery carried: an email's document (PDF, .docx, text) as sent, a webhook's body. Bytes, not JSON. */
export const deliveryDocument = (fetchWithAttachment: FetchWithAttachment): RequestHandler => async (req, res) => {
  const deliveryId = pathId(req.params['deliveryId'], 'Delivery');
  const { value, attachment } = await fetchWithAttachment<DeliveryDocumentView>(req, deliveryCommands.getDeliveryDocument, { ...destinationIdsOf(req), deliveryId });
  if (!attachment) throw new AppError('internal', 'The delivery service answered a document without its bytes');
  res.status(200);
  res.setHeader('Content-Type', value.content_type);
  res.setHeader('Content-Disposition', contentDisposition(value.file_name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', String(attachment.length));
  res.end(attachment);
};
