import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { AppError } from '@formcast/platform';
import { Base64Decoder } from '../../src/http/resource-upload/base64-decoder';
import { watchRequestBodies } from '../../src/http/body-watch';
import { defaultHttpTimeouts } from '../../src/http/http-timeouts';
import { readResourceUpload, type ResourceUpload } from '../../src/http/resource-upload/read-resource-upload';
import { fileDataOf } from './decoded';
import { randomPieces } from './pieces';

const limits = { bodyLimitBytes: 200_000, maxFileBytes: 50_000 };

/** A request whose body the test writes, and what the reader did to the response. */
function fakeExchange(headers: Record<string, string>) {
  const body = new PassThrough();
  const socket = { destroy: jest.fn(), once: jest.fn() };
  const req = Object.assign(body, { headers, socket }) as unknown as IncomingMessage;
  let outcome: { upload?: ResourceUpload; error?: AppError } | undefined;
  const reading = readResourceUpload(req, limits).then(
    (upload) => (outcome = { upload }),
    (error: AppError) => (outcome = { error }),
  );
  return {
    body,
    /** Whether the reader has answered yet. */
    settled: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return outcome !== undefined;
    },
    outcome: async () => {
      await reading;
      return outcome!;
    },
    /** Whether the connection is cut once the rest of the body has been dropped for REFUSED_BODY_DRAIN_MS (30 s). */
    cutOffAfterDrain: () => {
      jest.advanceTimersByTime(defaultHttpTimeouts.refusedBodyDrainMs - 1);
      if (socket.destroy.mock.calls.length > 0) return false;
      jest.advanceTimersByTime(1);
      return socket.destroy.mock.calls.length === 1;
    },
  };
}

async function read(headers: Record<string, string>, chunks: Array<string | Buffer>) {
  const exchange = fakeExchange(headers);
  for (const chunk of chunks) exchange.body.write(chunk);
  exchange.body.end();
  return exchange.outcome();
}

const json = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
const form = { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' };
const fileBytes = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 256));
const jsonBody = JSON.stringify({ resource: { description: 'é 日本 😀', file: { file_name: 'a.bin', content_type: 'text/plain', file_data: fileBytes.toString('base64') } } });
const formBody = `resource[description]=${encodeURIComponent('é 日本 😀')}&resource[file][file_name]=a.bin&resource[file][content_type]=text%2Fplain&resource[file][file_data]=${encodeURIComponent(fileBytes.toString('base64'))}`;

/** The body's bytes cut at random places, multi-byte characters included. */
const cut = (text: string, seed: number) => randomPieces(Buffer.from(text).toString('latin1'), seed, 5000).map((piece) => Buffer.from(piece, 'latin1'));

describe('readResourceUpload', () => {
  // The drain's cut-off runs on fake time; streams and `settled` keep the real ticks.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('reads nothing when there is no body: no length and not chunked, or a length of 0', async () => {
    expect(await fakeExchange({ 'content-type': 'application/json' }).outcome()).toEqual({ upload: { kind: 'empty' } });
    expect(await read({ 'content-type': 'application/json', 'content-length': '0' }, [])).toEqual({ upload: { kind: 'empty' } });
    expect(await read(json, [])).toEqual({ upload: { kind: 'empty' } });
    expect(await read({ 'content-type': 'application/xml', 'transfer-encoding': 'chunked' }, [])).toEqual({ upload: { kind: 'empty' } });
    expect(await read({ 'transfer-encoding': 'chunked' }, [])).toEqual({ upload: { kind: 'empty' } });
  });

  it.each([
    ['JSON', json, jsonBody],
    ['a form', form, formBody],
  ])('reads %s cut anywhere (inside characters too), the file decoded', async (_name, headers, body) => {
    for (const seed of [1, 2, 3]) {
      const { upload } = await read(headers, cut(body, seed));
      const value = (upload as { value: { resource: { description: string } } }).value;
      expect(value.resource.description).toBe('é 日本 😀');
      expect((fileDataOf(value) as Base64Decoder).bytes().equals(fileBytes)).toBe(true);
    }
  });

  it('allocates the file\'s buffer once, from Content-Length, and hands over exactly the file', async () => {
    const length = Buffer.byteLength(jsonBody);
    const { upload } = await read({ 'content-type': 'application/json', 'content-length': String(length) }, cut(jsonBody, 4));
    const bytes = (fileDataOf((upload as { value: unknown }).value) as Base64Decoder).bytes();
    expect(bytes.length).toBe(fileBytes.length);
    expect(bytes.buffer.byteLength).toBe(Math.floor((length * 3) / 4));
  });

  it('takes the JSON types readBody takes', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json']) {
      expect((await read({ 'content-type': type, 'transfer-encoding': 'chunked' }, ['{"resource":{}}'])).upload).toEqual({ kind: 'json', value: { resource: {} } });
    }
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('reads a body compressed as %s, cut anywhere, the file decoded', async (encoding, compress) => {
    const compressed = compress(Buffer.from(jsonBody));
    const { upload } = await read({ ...json, 'content-encoding': encoding }, [compressed.subarray(0, 7), compressed.subarray(7, 500), compressed.subarray(500)]);
    const value = (upload as { value: { resource: { description: string } } }).value;
    expect(value.resource.description).toBe('é 日本 😀');
    expect((fileDataOf(value) as Base64Decoder).bytes().equals(fileBytes)).toBe(true);
  });

  it('refuses an unknown Content-Encoding with 415, reading nothing', async () => {
    const { error } = await read({ ...json, 'content-encoding': 'compress' }, []);
    expect(error?.code).toBe('unsupported_media_type');
    expect(error?.message).toMatch(/^Content-Encoding compress is not accepted/);
  });

  it.each(['gzip', 'deflate', 'br'])('refuses a body that is not %s with 400 at once, before its end', async (encoding) => {
    const exchange = fakeExchange({ ...json, 'content-encoding': encoding });
    exchange.body.write(Buffer.from('this is not compressed at all, whatever the header says'.repeat(20)));
    const { error } = await exchange.outcome();
    expect(error?.code).toBe('invalid');
    expect(error?.message).toBe(`body: could not be decompressed (${encoding})`);
  });

  it('refuses a compressed body cut short with 400', async () => {
    const compressed = gzipSync(Buffer.from(jsonBody));
    const { error } = await read({ ...json, 'content-encoding': 'gzip' }, [compressed.subarray(0, compressed.length - 10)]);
    expect(error?.message).toBe('body: could not be decompressed (gzip)');
  });

  it('refuses a decompression bomb with 413 as soon as what it decompresses to passes the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * limits.bodyLimitBytes, ' '));
    expect(bomb.length).toBeLessThan(limits.bodyLimitBytes / 10);
    const exchange = fakeExchange({ ...json, 'content-encoding': 'gzip' });
    exchange.body.write(bomb);
    const { error } = await exchange.outcome();
    expect(error?.code).toBe('too_large');
  });

  it('refuses text XML cannot carry, naming the field, in JSON and form bodies', async () => {
    const jsonRefusal = await read(json, [JSON.stringify({ resource: { description: 'bell \u0007', file: { file_name: 'a.txt' } } })]);
    expect(jsonRefusal.error?.message).toBe('resource.description: contains a character XML cannot carry (U+0007)');
    const formRefusal = await read(form, ['resource[description]=x&resource[file][file_name]=a%00.txt']);
    expect(formRefusal.error?.message).toBe('resource.file.file_name: contains a character XML cannot carry (U+0000)');
    const surrogate = await read(json, ['{"resource":{"description":"\\ud800"}}']);
    expect(surrogate.error?.message).toBe('resource.description: contains a character XML cannot carry (U+D800, a lone surrogate)');
  });

  it('refuses JSON nested deeper than 32 levels, as readBody does; 32 are read', async () => {
    const nested = (depth: number) => `{"resource":{"description":"x","extra":${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}}`;
    expect((await read(json, [nested(32)])).upload).toMatchObject({ kind: 'json' });
    expect((await read(json, [nested(33)])).error?.message).toBe('The JSON body is nested deeper than 32 levels');
    expect((await read(json, [nested(30_000)])).error?.message).toBe('The JSON body is nested deeper than 32 levels');
  });

  it('refuses a Content-Length over the limit with 413 before reading, and cuts the connection off once the drain time is over', async () => {
    const exchange = fakeExchange({ 'content-type': 'application/json', 'content-length': String(limits.bodyLimitBytes + 1) });
    const { error } = await exchange.outcome();
    expect(error?.code).toBe('too_large');
    expect(error?.message).toBe(`The request body is too large: a resource file may be at most ${limits.maxFileBytes} bytes`);
    expect(exchange.cutOffAfterDrain()).toBe(true);
  });

  it('refuses a chunked body with 413 as soon as it passes the limit, without waiting for its end', async () => {
    const exchange = fakeExchange(json);
    exchange.body.write('{"resource":{"file":{"file_data":"');
    exchange.body.write('QUJD'.repeat(limits.bodyLimitBytes / 4));
    expect(await exchange.settled()).toBe(true);
    expect((await exchange.outcome()).error?.message).toMatch(/^The request body is too large: /);
    expect(exchange.cutOffAfterDrain()).toBe(true);
  });

  it('refuses a file far over RESOURCE_MAX_BYTES with 413 while it is read', async () => {
    for (const [headers, start] of [
      [json, '{"resource":{"file":{"file_data":"'],
      [form, 'resource[file][file_data]='],
    ] as const) {
      const exchange = fakeExchange(headers);
      exchange.body.write(start);
      for (let i = 0; i < 40 && !(await exchange.settled()); i++) exchange.body.write('QUJD'.repeat(1024));
      const { error } = await exchange.outcome();
      expect(error?.message).toBe(`file.file_data: the file is over ${limits.maxFileBytes} bytes; the largest accepted is ${limits.maxFileBytes} bytes`);
      expect(exchange.cutOffAfterDrain()).toBe(true);
    }
  });

  it('refuses other fields over their budget with 413 while they are read', async () => {
    const exchange = fakeExchange(json);
    exchange.body.write(`{"resource":{"description":"${'x'.repeat(70 * 1024)}`);
    expect(await exchange.settled()).toBe(true);
    expect((await exchange.outcome()).error?.code).toBe('too_large');
  });

  it('answers malformed JSON only once the body has ended, as a 400', async () => {
    const exchange = fakeExchange(json);
    exchange.body.write('{"resource": ]');
    exchange.body.write('more');
    expect(await exchange.settled()).toBe(false);
    exchange.body.end();
    const { error } = await exchange.outcome();
    expect(error?.code).toBe('invalid');
    expect(error?.message).toMatch(/^Malformed JSON: /);
    expect(exchange.cutOffAfterDrain()).toBe(false);
  });

  it('still refuses a malformed body with 413 when it goes on past the limit', async () => {
    const exchange = fakeExchange(json);
    exchange.body.write('AAAA');
    exchange.body.write('A'.repeat(limits.bodyLimitBytes));
    expect((await exchange.outcome()).error?.code).toBe('too_large');
  });

  it('refuses invalid UTF-8 with 400, before a syntax error that comes earlier, as readBody did', async () => {
    for (const headers of [json, form, { 'content-type': 'application/xml', 'transfer-encoding': 'chunked' }]) {
      const { error } = await read(headers, ['{"resource": ]', Buffer.from([0x61, 0xff, 0x62])]);
      expect(error?.code).toBe('invalid');
      expect(error?.message).toBe('The request body is not valid UTF-8');
    }
    // A character cut by the end of the body is not UTF-8 either.
    expect((await read(json, [Buffer.from('"é"').subarray(0, 2)])).error?.message).toBe('The request body is not valid UTF-8');
  });

  it('refuses XML and other types with 415 once the body is read, as the route did', async () => {
    const xml = await read({ 'content-type': 'text/xml', 'transfer-encoding': 'chunked' }, ['<resource/>']);
    expect(xml.error?.code).toBe('unsupported_media_type');
    expect(xml.error?.message).toBe('Resources take application/json or application/x-www-form-urlencoded, not XML');
    for (const headers of [{ 'content-type': 'text/csv' }, { 'content-type': 'multipart/form-data; boundary=x' }, {}] as Array<Record<string, string>>) {
      const other = await read({ ...headers, 'transfer-encoding': 'chunked' }, [Buffer.from([0x61, 0xff])]);
      expect(other.error?.code).toBe('unsupported_media_type');
      expect(other.error?.message).toMatch(/^Send the resource as application\/json .* or application\/x-www-form-urlencoded/);
    }
  });

  it('refuses a body cut off by the client with 400', async () => {
    const exchange = fakeExchange(json);
    exchange.body.write('{"resource":');
    exchange.body.emit('aborted');
    expect((await exchange.outcome()).error?.message).toBe('The request body could not be read');
  });
});

describe('readResourceUpload over HTTP', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // As in the gateway, with the refused body dropped for 2 s at most.
    const watchBodies = watchRequestBodies({ ...defaultHttpTimeouts, refusedBodyDrainMs: 2000 }, limits.bodyLimitBytes);
    server = createServer((req, res) => {
      watchBodies(req as Request, res as Response, () => undefined);
      readResourceUpload(req, limits).then(
        (upload) => res.end(JSON.stringify({ kind: upload.kind })),
        (error: AppError) => {
          res.statusCode = error.code === 'too_large' ? 413 : 400;
          res.end(error.message);
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('lets a client still writing a file far over the limit read the 413', async () => {
    const answer = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = request({ port, method: 'POST', path: '/', headers: json }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (data: string) => (body += data));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, sent });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('{"resource":{"file":{"file_data":"');
      const chunk = 'QUJD'.repeat(4096);
      const writeNext = () => {
        if (req.destroyed || sent > 1.5 * limits.bodyLimitBytes) return; // within the drain's bytes: never cut
        sent += chunk.length;
        req.write(chunk, () => setImmediate(writeNext));
      };
      writeNext();
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/^file\.file_data: the file is over/);
    expect(answer.sent).toBeLessThan(limits.bodyLimitBytes);
  });

  it('cuts a client off about REFUSED_BODY_DRAIN_MS (2 s here) after the 413 when it goes on writing', async () => {
    const timing = await new Promise<{ status: number; cutAfterMs: number }>((resolve) => {
      let status = 0;
      let answeredAt = 0;
      const req = request({ port, method: 'POST', path: '/', headers: json }, (res) => {
        status = res.statusCode ?? 0;
        answeredAt = Date.now();
        res.resume();
      });
      const cut = () => resolve({ status, cutAfterMs: Date.now() - answeredAt });
      req.on('error', cut);
      req.on('close', cut);
      req.write('{"resource":{"file":{"file_data":"' + 'QUJD'.repeat(limits.bodyLimitBytes / 4));
      const keepWriting = setInterval(() => (req.destroyed ? clearInterval(keepWriting) : req.write('QUJD')), 50);
    });
    expect(timing.status).toBe(413);
    expect(timing.cutAfterMs).toBeGreaterThanOrEqual(1500);
    expect(timing.cutAfterMs).toBeLessThan(5000);
  });

  it('keeps the connection for the next request when a refused body ends within the 2 s', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string) =>
      new Promise<{ status: number; reusedSocket: boolean }>((resolve, reject) => {
        const req = request({ port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const refused = await post('{"resource":{"file":{"file_data":"' + 'QUJD'.repeat(limits.bodyLimitBytes / 4) + '"}}}');
      expect(refused).toEqual({ status: 413, reusedSocket: false });
      expect(await post('{"resource":{"description":"next"}}')).toEqual({ status: 200, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  });
});
