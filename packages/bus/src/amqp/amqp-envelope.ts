import type { Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { Message, MessageProperties } from 'amqplib';
import { decodeEnvelope, type EncodedEnvelope } from '../envelope-codec';
import { jsonContentType } from './topology';

/** Where a command or event with an attachment carries its envelope's JSON. */
export const envelopeHeader = 'x-formcast-envelope';
/** Where a reply with an attachment carries its JSON. */
export const replyHeader = 'x-formcast-reply';
const attachmentContentType = 'application/octet-stream';
/**
 * The header travels in one frame of at most the negotiated frame size (128 KiB by
 * default), so the JSON beside an attachment must stay well below it.
 */
export const maxEnvelopeBytesBesideAttachment = 64 * 1024;

/** RabbitMQ 3's default `max_message_size`; RabbitMQ 4's is 16 MiB. */
export const defaultMaxMessageBytes = 128 * 1024 * 1024;

export interface AmqpMessage {
  content: Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

type Received = Pick<Message, 'content'> & { properties: Pick<MessageProperties, 'headers'> };

/**
 * JSON and bytes as one message: without bytes, the content is the JSON; with them, the
 * content is the bytes themselves (sent without a copy, however large) and the JSON goes
 * in the header `jsonHeader`.
 */
function asMessage(json: string, attachment: Buffer | undefined, jsonHeader: string): AmqpMessage {
  return attachment
    ? { content: attachment, contentType: attachmentContentType, headers: { [jsonHeader]: json } }
    : { content: Buffer.from(json), contentType: jsonContentType };
}

/** The JSON and bytes of a received message (see asMessage); null when the header is not text. */
function partsOf(message: Received, jsonHeader: string): { json: Buffer | string; attachment?: Buffer } | null {
  const header: unknown = message.properties.headers?.[jsonHeader];
  if (header === undefined) return { json: message.content };
  return typeof header === 'string' || Buffer.isBuffer(header) ? { json: header, attachment: message.content } : null;
}

/**
 * An envelope as a message. One over `maxMessageBytes` is refused here with too_large: the
 * broker would close the whole connection over it.
 */
export function toAmqpMessage(encoded: EncodedEnvelope, maxMessageBytes = defaultMaxMessageBytes): AmqpMessage {
  if (encoded.attachment && Buffer.byteLength(encoded.json) > maxEnvelopeBytesBesideAttachment) {
    throw new AppError('too_large', `A message with an attachment takes at most ${maxEnvelopeBytesBesideAttachment} bytes of JSON beside it`);
  }
  const message = asMessage(encoded.json, encoded.attachment, envelopeHeader);
  if (message.content.length > maxMessageBytes) {
    throw new AppError('too_large', `The message is ${message.content.length} bytes; the broker takes at most ${maxMessageBytes}`);
  }
  return message;
}

/** A reply as a message. */
export function replyAsAmqpMessage(json: string, attachment: Buffer | undefined): AmqpMessage {
  return asMessage(json, attachment, replyHeader);
}

/** The reply's JSON and attachment in a received message (a header that is not text reads as a malformed reply). */
export function replyOfMessage(message: Received): { json: Buffer | string; attachment?: Buffer } {
  return partsOf(message, replyHeader) ?? { json: '' };
}

/** The envelope a received message holds, or null when it holds none. */
export function envelopeOfMessage(message: Received): Envelope | null {
  const parts = partsOf(message, envelopeHeader);
  return parts && decodeEnvelope(parts.json, parts.attachment);
}
