import type { Request, RequestHandler } from 'express';
import {
  deliveryCommands,
  type DestinationDetailView,
  type DestinationView,
  type DestinationWithSecretView,
} from '@formcast/contracts';
import { AppError, isAppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { readBody } from '../http/request-body';
import { renderRemoteConnectionsXml, renderRemoteConnectionXml } from '../render/remote-connections-xml';
import { elements, elementText, isNode, rootElement, type XmlNode } from '../xml/parse-xml';
import type { SendCommand } from '../http/send-command';

const bodyShape =
  '<remote_connections><http_connection><name>…</name><remote_url>…</remote_url><headers><header_1>value_1</header_1></headers></http_connection></remote_connections>';

/** `<headers><X-Api-Key>v</X-Api-Key><header name="a+b">v</header></headers>`: name → value. */
function headersFrom(container: unknown, field: string): Record<string, string> {
  if (container === '') return {};
  if (!isNode(container)) throw new AppError('invalid', `${field}: must contain one element per header, e.g. <header_1>value_1</header_1>`);
  const headers: Record<string, string> = {};
  for (const [element, values] of Object.entries(container)) {
    if (element.startsWith('@_') || element === '#text') continue;
    for (const value of elements(values)) {
      const name = isNode(value) && typeof value['@_name'] === 'string' ? value['@_name'] : element;
      if (Object.hasOwn(headers, name)) throw new AppError('invalid', `${field}: ${name} is given twice`);
      headers[name] = elementText(value, `${field}.${name}`);
    }
  }
  return headers;
}

/** One `<http_connection>` as the delivery service's create payload: an http_transport destination with xml_format. */
function connectionPayload(connection: unknown, field: string): Record<string, unknown> {
  if (!isNode(connection)) throw new AppError('invalid', `${field}: must contain <remote_url>`);
  if (connection['remote_url'] === undefined) throw new AppError('invalid', `${field}.remote_url: is required`);
  const name = connection['name'] === undefined ? '' : elementText(connection['name'], `${field}.name`);
  const uri = elementText(connection['remote_url'], `${field}.remote_url`);
  const headers = connection['headers'] === undefined ? undefined : headersFrom(connection['headers'], `${field}.headers`);
  return {
    destination: { description: name === '' ? null : name, format_selection: 'xml_format', transport_selection: 'http_transport' },
    xml_format: {},
    http_transport: headers === undefined ? { uri } : { uri, headers },
  };
}

function connectionPayloads(req: Request): Record<string, unknown>[] {
  const body = readBody(req);
  if (body.kind !== 'xml') throw new AppError('invalid', `Send XML: ${bodyShape}`);
  const root: XmlNode = rootElement(body.value, 'remote_connections');
  const others = Object.keys(root).filter((name) => name !== 'http_connection' && !name.startsWith('@_') && name !== '#text');
  if (others.length > 0) throw new AppError('invalid', `remote_connections: only <http_connection> is supported, not <${others[0]}>`);
  const connections = elements(root['http_connection']);
  if (connections.length === 0) throw new AppError('invalid', `remote_connections: at least one <http_connection>, e.g. ${bodyShape}`);
  return connections.map((connection, i) => connectionPayload(connection, connections.length === 1 ? 'http_connection' : `http_connection ${i + 1}`));
}

/** The delivery service's field names, as this API spells them. */
const fieldNames: Array<[string, string]> = [
  ['http_transport.uri', 'remote_url'],
  ['http_transport.headers', 'headers'],
  ['destination.description', 'name'],
];

function inConnectionTerms(error: unknown): unknown {
  if (!isAppError(error) || error.code !== 'invalid') return error;
  const renamed = fieldNames.reduce((message, [from, to]) => message.replace(from, to), error.message);
  return new AppError(error.code, renamed, error.details);
}

/**
 * The Connections API, the older generation of the Destinations API, in XML: each
 * `<http_connection>` is an http_transport destination of the form with xml_format (name
 * → description, remote_url → uri, headers → headers), the same record
 * `/api/forms/<form_id>/destinations/<id>` shows. Mounted under /organizations/:orgId.
 */
const formIdOf = (req: Request) => pathId(req.params['formId'], 'Form');

/** Several connections in one request are made one by one; should one be refused, those made before it are deleted, so a request makes all or none. */
export const createConnections = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = formIdOf(req);
  const created: DestinationWithSecretView[] = [];
  try {
    for (const payload of connectionPayloads(req)) {
      created.push(await send<DestinationWithSecretView>(req, deliveryCommands.createDestination, { ...payload, formId }));
    }
  } catch (error) {
    for (const { id } of created) {
      await send(req, deliveryCommands.deleteDestination, { formId, destinationId: id }).catch((undone: unknown) => {
        req.context.logger.warn({ err: undone, destinationId: id }, 'a connection made before a refused one could not be deleted');
      });
    }
    throw inConnectionTerms(error);
  }
  res.status(201).type('application/xml').send(renderRemoteConnectionsXml(created));
};

export const listConnections = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = formIdOf(req);
  const destinations = await send<DestinationView[]>(req, deliveryCommands.listDestinations, { formId });
  const connections = await Promise.all(
    destinations
      .filter((destination) => destination.transport_type === 'http_transport')
      .map((destination) => send<DestinationDetailView>(req, deliveryCommands.getDestination, { formId, destinationId: destination.id })),
  );
  res.type('application/xml').send(renderRemoteConnectionsXml(connections));
};

/** The destination a connection path names; only http_transport destinations are connections. */
const connectionOf = async (send: SendCommand, req: Request) => {
  const ids = { formId: formIdOf(req), destinationId: pathId(req.params['connectionId'], 'Connection') };
  const destination = await send<DestinationDetailView>(req, deliveryCommands.getDestination, ids);
  if (destination.transport_type !== 'http_transport') throw new AppError('not_found', `Connection ${ids.destinationId} does not exist`);
  return { ids, destination };
};

export const showConnection = (send: SendCommand): RequestHandler => async (req, res) => {
  res.type('application/xml').send(renderRemoteConnectionXml((await connectionOf(send, req)).destination));
};

export const deleteConnection = (send: SendCommand): RequestHandler => async (req, res) => {
  await send(req, deliveryCommands.deleteDestination, (await connectionOf(send, req)).ids);
  res.status(200).end();
};
