import { createEnvelope, envelopeSchema, replySchema, type Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { decodeEnvelope, encodeEnvelope, wellFormedEnvelope } from '../src/envelope-codec';
import { decodeReply, encodeReply, replyWithError, replyWithValue, wellFormedReply } from '../src/reply-codec';

/**
 * The codecs check envelopes and replies without zod when the shape is one zod certainly
 * accepts, and leave everything else to zod. These tests hold the shortcut to zod's answers:
 * whatever it accepts, zod accepts and makes the same of; what it leaves, zod decides.
 */

const base = { id: 'id-1', type: 'push.oneshot.create', occurredAt: '2030-01-01T00:00:00.000Z', orgId: 7, requestId: 'req-1', payload: { a: [1, 'two', null] } };

// Envelope-like values: valid ones, and every way to be not quite one.
const envelopeCandidates: Array<[string, unknown]> = [
  ['a full envelope', base],
  ['orgId null', { ...base, orgId: null }],
  ['orgId 0', { ...base, orgId: 0 }],
  ['orgId -0', { ...base, orgId: -0 }],
  ['orgId negative', { ...base, orgId: -3 }],
  ['orgId the largest safe integer', { ...base, orgId: Number.MAX_SAFE_INTEGER }],
  ['orgId past the safe integers', { ...base, orgId: 2 ** 53 }],
  ['orgId a fraction', { ...base, orgId: 1.5 }],
  ['orgId NaN', { ...base, orgId: Number.NaN }],
  ['orgId Infinity', { ...base, orgId: Number.POSITIVE_INFINITY }],
  ['orgId a string', { ...base, orgId: '7' }],
  ['orgId missing', { ...base, orgId: undefined }],
  ['payload null', { ...base, payload: null }],
  ['payload a string', { ...base, payload: 'text' }],
  ['payload 0', { ...base, payload: 0 }],
  ['payload false', { ...base, payload: false }],
  ['payload given as undefined', { ...base, payload: undefined }],
  ['payload absent', (({ payload: _payload, ...rest }) => rest)(base)],
  ['an empty id', { ...base, id: '' }],
  ['an empty type', { ...base, type: '' }],
  ['an empty requestId', { ...base, requestId: '' }],
  ['an empty occurredAt', { ...base, occurredAt: '' }],
  ['id a number', { ...base, id: 1 }],
  ['type missing', (({ type: _type, ...rest }) => rest)(base)],
  ['requestId null', { ...base, requestId: null }],
  ['occurredAt a Date', { ...base, occurredAt: new Date(0) }],
  ['a String object as id', { ...base, id: new String('x') }],
  ['unknown fields', { ...base, extra: 1, __proto__: { inherited: 2 } }],
  ['fields inherited', Object.assign(Object.create({ id: 'inherited-id' }), { ...base, id: undefined })],
  ['an attachment', { ...base, attachment: Buffer.from('bytes') }],
  ['an attachment given as undefined', { ...base, attachment: undefined }],
  ['an attachment null', { ...base, attachment: null }],
  ['an attachment that is a Uint8Array', { ...base, attachment: new Uint8Array([1]) }],
  ['an attachment that is an object', { ...base, attachment: { type: 'Buffer', data: [1] } }],
  ['an idempotency key', { ...base, idempotency: { key: 'k-1', fingerprint: 'sha' } }],
  ['an idempotency key with an attachment', { ...base, attachment: Buffer.from('bytes'), idempotency: { key: 'k', fingerprint: 'f' } }],
  ['an idempotency key given as undefined', { ...base, idempotency: undefined }],
  ['an idempotency key null', { ...base, idempotency: null }],
  ['an idempotency key with extra fields', { ...base, idempotency: { key: 'k', fingerprint: 'f', extra: 1 } }],
  ['an idempotency key empty', { ...base, idempotency: { key: '', fingerprint: 'f' } }],
  ['an idempotency key without fingerprint', { ...base, idempotency: { key: 'k' } }],
  ['an idempotency key a string', { ...base, idempotency: 'k' }],
  ['an idempotency key an array', { ...base, idempotency: ['k', 'f'] }],
  ['a trace context', { ...base, traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } }],
  ['a trace context with tracestate', { ...base, traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'v=1' } }],
  ['a trace context with tracestate given as undefined', { ...base, traceContext: { traceparent: 'tp', tracestate: undefined } }],
  ['a trace context with extra fields', { ...base, traceContext: { traceparent: 'tp', baggage: 'x' } }],
  ['a trace context with an attachment and a key', { ...base, attachment: Buffer.from('b'), idempotency: { key: 'k', fingerprint: 'f' }, traceContext: { traceparent: 'tp' } }],
  ['a trace context given as undefined', { ...base, traceContext: undefined }],
  ['a trace context null', { ...base, traceContext: null }],
  ['a trace context with an empty traceparent', { ...base, traceContext: { traceparent: '' } }],
  ['a trace context without traceparent', { ...base, traceContext: { tracestate: 'v=1' } }],
  ['a trace context with tracestate a number', { ...base, traceContext: { traceparent: 'tp', tracestate: 1 } }],
  ['a trace context a string', { ...base, traceContext: '00-abc' }],
  ['a bad trace context after a good key', { ...base, idempotency: { key: 'k', fingerprint: 'f' }, traceContext: [] }],
  ['an array', [base]],
  ['null', null],
  ['a string', 'envelope'],
  ['a number', 42],
];

describe('wellFormedEnvelope', () => {
  it.each(envelopeCandidates)('never accepts what zod refuses, and makes what zod makes: %s', (_what, value) => {
    const ours = wellFormedEnvelope(value);
    const zods = envelopeSchema.safeParse(value);
    if (ours !== undefined) {
      expect(zods.success).toBe(true);
      expect(ours).toStrictEqual(zods.data);
      expect(Object.keys(ours)).toEqual(Object.keys(zods.data!));
    }
  });

  it('takes the envelopes every adapter sends without zod', () => {
    expect(wellFormedEnvelope(createEnvelope('t', { x: 1 }, { orgId: 3 }))).toBeDefined();
    expect(wellFormedEnvelope(createEnvelope('t', null))).toBeDefined();
    expect(wellFormedEnvelope(createEnvelope('t', 'p', {}, Buffer.from('a')))).toBeDefined();
    expect(wellFormedEnvelope(JSON.parse(JSON.stringify(createEnvelope('t', [1], { orgId: 1 }))))).toBeDefined();
    const keyed = createEnvelope('t', {}, { orgId: 1, idempotency: { key: 'k', fingerprint: 'f' } }, Buffer.from('a'));
    expect(wellFormedEnvelope(keyed)).toEqual(keyed);
    const traced = { ...createEnvelope('t', {}, { orgId: 1 }), traceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } };
    expect(wellFormedEnvelope(traced)).toEqual(traced);
  });

  it('carries a trace context through encode and decode, and none when the envelope has none', () => {
    const traceContext = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=1' };
    const traced = { ...createEnvelope('t', { x: 1 }, { orgId: 1 }), traceContext };
    expect(decodeEnvelope(encodeEnvelope(traced).json)?.traceContext).toEqual(traceContext);
    const plain = createEnvelope('t', { x: 1 }, { orgId: 1 });
    expect(encodeEnvelope(plain).json).not.toContain('traceContext');
    expect(decodeEnvelope(encodeEnvelope(plain).json)).not.toHaveProperty('traceContext');
  });
});

describe('encodeEnvelope and decodeEnvelope', () => {
  /** What the codecs did with zod alone, before the shortcut. */
  function encodedByZod(envelope: Envelope): { json: string; attachment?: Buffer } {
    const parsed = envelopeSchema.safeParse({ ...envelope, payload: envelope.payload ?? null });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('internal', `Not a valid envelope: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
    }
    const { attachment, ...rest } = parsed.data;
    const json = JSON.stringify(rest);
    return attachment ? { json, attachment } : { json };
  }

  function decodedByZod(json: string, attachment?: Buffer): Envelope | null {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return null;
    }
    const parsed = envelopeSchema.safeParse(value);
    if (!parsed.success) return null;
    const envelope = parsed.data as Envelope;
    if (attachment) envelope.attachment = attachment;
    return envelope;
  }

  it.each(envelopeCandidates)('encode as zod alone did (same JSON, or the same error): %s', (_what, value) => {
    const outcome = (encode: () => unknown) => {
      try {
        return { encoded: encode() };
      } catch (error) {
        return { error: error instanceof AppError ? { code: error.code, message: error.message } : String(error) };
      }
    };
    expect(outcome(() => encodeEnvelope(value as Envelope))).toStrictEqual(outcome(() => encodedByZod(value as Envelope)));
  });

  it.each(envelopeCandidates)('decode as zod alone did: %s', (_what, value) => {
    const json = JSON.stringify(value) ?? 'undefined';
    expect(decodeEnvelope(json)).toStrictEqual(decodedByZod(json));
    expect(decodeEnvelope(Buffer.from(json))).toStrictEqual(decodedByZod(json));
    const attachment = Buffer.from('file');
    const decoded = decodeEnvelope(json, attachment);
    expect(decoded).toStrictEqual(decodedByZod(json, attachment));
    if (decoded) expect(decoded.attachment).toBe(attachment);
  });

  it('decodes what it encodes, the attachment handed over as the same Buffer', () => {
    const attachment = Buffer.from('raw bytes');
    const envelope = createEnvelope('resources.create', { name: 'a.png' }, { orgId: 4, requestId: 'r-9' }, attachment);
    const encoded = encodeEnvelope(envelope);
    expect(encoded.attachment).toBe(attachment);
    expect(JSON.parse(encoded.json)).not.toHaveProperty('attachment');
    const decoded = decodeEnvelope(encoded.json, encoded.attachment);
    expect(decoded).toEqual(envelope);
    expect(decoded!.attachment).toBe(attachment);
    expect(decoded!.payload).not.toBe(envelope.payload);
  });

  it('refuses what is not JSON, or not an envelope', () => {
    expect(decodeEnvelope('{not json')).toBeNull();
    expect(decodeEnvelope('"text"')).toBeNull();
    expect(decodeEnvelope(JSON.stringify({ ...base, attachment: { type: 'Buffer', data: [1] } }))).toBeNull();
  });

  it('still names the field of an envelope that is not one', () => {
    expect(() => encodeEnvelope({ ...base, orgId: 1.5 } as Envelope)).toThrow(
      new AppError('internal', 'Not a valid envelope: orgId Invalid input: expected int, received number'),
    );
    expect(() => encodeEnvelope({ ...base, id: '' } as Envelope)).toThrow(/Not a valid envelope: id /);
  });

  it('sends an undefined payload as null, and refuses a payload JSON cannot carry', () => {
    expect(JSON.parse(encodeEnvelope({ ...base, payload: undefined }).json).payload).toBeNull();
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    expect(() => encodeEnvelope({ ...base, payload: circular })).toThrow(/not JSON-serializable/);
    expect(() => encodeEnvelope({ ...base, payload: { n: 10n } })).toThrow(/not JSON-serializable/);
  });
});

describe('decodeReply', () => {
  const replyCandidates: Array<[string, unknown]> = [
    ['a value', { ok: true, value: { id: 1, name: 'x' } }],
    ['a null value', { ok: true, value: null }],
    ['a value and more', { ok: true, value: 0, extra: 'x' }],
    ['no value', { ok: true }],
    ['an error', { ok: false, error: { code: 'not_found', message: 'No such oneshot' } }],
    ['an error with details', { ok: false, error: { code: 'invalid', message: 'm', details: { field: 'a' } } }],
    ['an error with null details', { ok: false, error: { code: 'invalid', message: 'm', details: null } }],
    ['an error with more fields', { ok: false, error: { code: 'conflict', message: 'm', stack: 'at …' }, value: 1 }],
    ['an unknown code', { ok: false, error: { code: 'teapot', message: 'm' } }],
    ['a code from Object.prototype', { ok: false, error: { code: 'toString', message: 'm' } }],
    ['a message that is not text', { ok: false, error: { code: 'internal', message: 5 } }],
    ['no error', { ok: false }],
    ['an error that is an array', { ok: false, error: [] }],
    ['ok as a string', { ok: 'true', value: 1 }],
    ['an array', [{ ok: true, value: 1 }]],
    ['null', null],
    ['text', 'ok'],
  ];

  function decodedByZod(content: string) {
    let json: unknown;
    try {
      json = JSON.parse(content);
    } catch {
      json = undefined;
    }
    const parsed = replySchema.safeParse(json);
    return parsed.success ? parsed.data : { ok: false, error: { code: 'internal', message: 'Received a malformed reply' } };
  }

  it.each(replyCandidates)('decodes as zod alone did: %s', (_what, value) => {
    const content = JSON.stringify(value);
    expect(decodeReply(content)).toStrictEqual(decodedByZod(content));
    expect(decodeReply(Buffer.from(content))).toStrictEqual(decodedByZod(content));
    const ours = wellFormedReply(value);
    if (ours !== undefined) expect(ours).toStrictEqual(replySchema.parse(value));
  });

  it('takes what encodeReply writes without zod', () => {
    for (const reply of [replyWithValue({ a: 1 }), replyWithValue(undefined), replyWithError(new AppError('not_found', 'gone', { id: 3 })), replyWithError(new Error('bug'))]) {
      const decoded = wellFormedReply(JSON.parse(encodeReply(reply)));
      expect(decoded).toBeDefined();
      expect(decoded).toStrictEqual(decodeReply(encodeReply(reply)));
    }
  });

  it('answers a malformed reply as internal', () => {
    expect(decodeReply('{')).toEqual({ ok: false, error: { code: 'internal', message: 'Received a malformed reply' } });
  });
});
