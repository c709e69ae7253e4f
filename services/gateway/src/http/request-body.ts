import type { Request } from 'express';
import { parse as parseQueryString } from 'qs';
import { AppError } from '@formcast/platform';
import { parseXml, type XmlNode } from '../xml/parse-xml';
import { refuseUnwritableText } from '../xml/unwritable-text';
import { refuseDeepJson } from './json-depth';

export type RequestBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'xml'; value: XmlNode }
  | { kind: 'form'; value: Record<string, unknown> }
  | { kind: 'empty' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new AppError('invalid', 'The request body is not valid UTF-8');
  }
}

/**
 * The request body, parsed by its Content-Type (JSON, XML or form-encoded). express.raw
 * has already enforced the size limit (and decompressed it). A malformed body is
 * AppError('invalid'), and so is one nested deeper than 32 levels or holding text XML
 * cannot carry (naming the field); an unsupported type is AppError('unsupported_media_type').
 * `jsonRoot` names a JSON body that is a bare value (a group create's array of names) in
 * those refusals: `group names[1]`, not `[1]`.
 */
export function readBody(req: Request, { jsonRoot = '' }: { jsonRoot?: string } = {}): RequestBody {
  const raw: unknown = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return { kind: 'empty' };
  const type = (req.get('content-type') ?? '').toLowerCase();
  if (/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    const text = decodeText(raw);
    refuseDeepJson(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new AppError('invalid', `Malformed JSON: ${(error as Error).message}`);
    }
    refuseUnwritableText(value, 'json', jsonRoot);
    return { kind: 'json', value };
  }
  if (/^(application|text)\/([\w.+-]+\+)?xml\b/.test(type)) {
    return { kind: 'xml', value: parseXml(decodeText(raw)) };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const value = parseQueryString(decodeText(raw), { depth: 8, parameterLimit: 1000, arrayLimit: 1000, allowPrototypes: false });
    refuseUnwritableText(value, 'json');
    return { kind: 'form', value };
  }
  throw new AppError(
    'unsupported_media_type',
    `Content-Type ${type || '(none)'} is not accepted: send application/json or application/xml`,
  );
}

/** Whether the body is XML by its Content-Type (as readBody decides it). */
export function isXmlBody(req: Request): boolean {
  return /^(application|text)\/([\w.+-]+\+)?xml\b/.test((req.get('content-type') ?? '').toLowerCase());
}

/** The body's text, UTF-8 (empty when there is none): for a reader of its own (XForms, which keeps the order of elements). */
export function bodyText(req: Request): string {
  const raw: unknown = req.body;
  return Buffer.isBuffer(raw) && raw.length > 0 ? decodeText(raw) : '';
}

/** The body as JSON, or a clear refusal. */
export function jsonBody(req: Request): unknown {
  const body = readBody(req);
  if (body.kind === 'json') return body.value;
  if (body.kind === 'empty') throw new AppError('invalid', 'A JSON body is required');
  throw new AppError('unsupported_media_type', 'This endpoint takes application/json');
}
