import type { DestinationDetailView, DestinationWithSecretView } from '@formcast/contracts';
import { xmlBoolean, xmlInteger, xmlNullableText } from '@formcast/xml-writing';
import { recordXml } from './record-xml';

/** An http_transport destination as the Connections API shows it; `secret` only on create. */
export type ConnectionView = DestinationDetailView | DestinationWithSecretView;

/** Header names that are XML names stand as elements, as in the request; any other is `<header name="…">`. */
const xmlName = /^[A-Za-z_][A-Za-z0-9._-]*$/;

function headersElement(headers: Record<string, string>): Record<string, unknown> {
  const element: Record<string, unknown> = {};
  const named: unknown[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'header') named.push(value);
    else if (xmlName.test(name)) element[name] = value;
    else named.push({ '@_name': name, '#text': value });
  }
  if (named.length > 0) element['header'] = named;
  return element;
}

function xmlTime(value: string | null): Record<string, unknown> {
  return value === null ? { '@_nil': 'true' } : { '#text': value, '@_type': 'dateTime' };
}

function connectionElement(connection: ConnectionView): Record<string, unknown> {
  const transport: { uri: string; headers?: Record<string, string> } = connection.http_transport ?? { uri: '' };
  const element: Record<string, unknown> = {
    id: xmlInteger(connection.id),
    name: xmlNullableText(connection.description),
    remote_url: transport.uri,
    headers: headersElement(transport.headers ?? {}),
    format: connection.format_type,
    active: xmlBoolean(connection.active),
    deactivated_reason: xmlNullableText(connection.deactivated_reason),
    deactivated_at: xmlTime(connection.deactivated_at),
    created_at: xmlTime(connection.created_at),
    updated_at: xmlTime(connection.updated_at),
  };
  if ('secret' in connection) element['secret'] = connection.secret;
  return element;
}

/**
 * `<remote_connections type="array"><http_connection><id/><name/><remote_url/><headers>
 * <header_1>value_1</header_1></headers>…`: the request's own names, and what a
 * destination adds (format, active, times; the signing secret once, on create).
 */
export const { list: renderRemoteConnectionsXml, one: renderRemoteConnectionXml } = recordXml('remote_connections', 'http_connection', connectionElement);
