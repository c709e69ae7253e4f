import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InProcessBus } from '@formcast/bus';
import { directoryCommands, resourceCommands, type Envelope } from '@formcast/contracts';
import { createLogger } from '@formcast/platform';
import { createGatewayApp } from '../../src/http/create-app';

/** The resource routes through the gateway, with a stand-in resources service that records what it is sent. */
describe('POST and PUT /api/resources through the gateway', () => {
  const maxFileBytes = 4096;
  let bus: InProcessBus;
  let server: Server;
  let port: number;
  let received: Envelope[] = [];

  beforeAll(async () => {
    const logger = createLogger({ level: 'silent' });
    bus = new InProcessBus({ logger });
    bus.handleCommand('directory', directoryCommands.authenticateToken, async () => ({ orgId: 7 }));
    for (const type of [resourceCommands.createResource, resourceCommands.updateResource, resourceCommands.listResources]) {
      bus.handleCommand('resources', type, async (command) => {
        received.push(command);
        return type === resourceCommands.listResources ? [] : { id: 1 };
      });
    }
    await bus.start();
    const app = createGatewayApp({ bus, logger, adminToken: 'admin-token-0123456789abcdef', commandTimeoutMs: 2000, bodyLimitBytes: 1024, resourceMaxBytes: maxFileBytes });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await bus.close();
  });
  beforeEach(() => {
    received = [];
  });

  function call(method: string, path: string, body?: string, contentType = 'application/json'): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Basic ${Buffer.from('a-token:x').toString('base64')}` };
      if (body !== undefined) headers['content-type'] = contentType;
      const req = request({ port, method, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (data: string) => (text += data));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const bytes = Buffer.from('Hello, resource ✓');
  const fileJson = (data = bytes.toString('base64')) => ({ file_name: 'hello.txt', file_data: data, content_type: ['text/plain', null] });

  it('creates: the file\'s name and type in the payload, its bytes as the attachment', async () => {
    const res = await call('POST', '/api/resources.json', JSON.stringify({ resource: { description: 'Greeting', file: fileJson() } }));
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toEqual({ resource: { id: 1 } });
    expect(received).toHaveLength(1);
    expect(received[0]!.payload).toEqual({ description: 'Greeting', file: { file_name: 'hello.txt', content_type: 'text/plain' } });
    expect(received[0]!.attachment?.equals(bytes)).toBe(true);
  });

  it('creates from a form-encoded body, a raw + read back as +', async () => {
    const data = Buffer.from([0xfb, 0xef, 0xff, 0xfe]); // "++//" and "/g==": a + in the Base64
    const body = `resource[description]=Form&resource[file][file_name]=a.bin&resource[file][content_type]=text%2Fplain&resource[file][file_data]=${data.toString('base64')}`;
    const res = await call('POST', '/api/resources', body, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(201);
    expect(received[0]!.payload).toEqual({ description: 'Form', file: { file_name: 'a.bin', content_type: 'text/plain' } });
    expect(received[0]!.attachment?.equals(data)).toBe(true);
  });

  it('updates the description alone without a file or an attachment, and a file with both', async () => {
    expect((await call('PUT', '/api/resources/3.json', JSON.stringify({ resource: { description: 'New' } }))).status).toBe(200);
    expect(received[0]!.payload).toEqual({ resourceId: 3, description: 'New' });
    expect(received[0]!.attachment).toBeUndefined();

    expect((await call('PUT', '/api/resources/3', JSON.stringify({ resource: { file: fileJson() } }))).status).toBe(200);
    expect(received[1]!.payload).toEqual({ resourceId: 3, file: { file_name: 'hello.txt', content_type: 'text/plain' } });
    expect(received[1]!.attachment?.equals(bytes)).toBe(true);
  });

  it.each([
    ['an empty body', undefined, 400, /resource: required/],
    ['no resource', '{"description":"x"}', 400, /resource: required/],
    ['no description', JSON.stringify({ resource: { file: fileJson() } }), 400, /description: required when creating/],
    ['no file', JSON.stringify({ resource: { description: 'x' } }), 400, /file: required when creating/],
    // The order of the checks is the route's, whatever the order of the fields in the body.
    ['a bad description and a bad file', JSON.stringify({ resource: { file: fileJson('*'), description: 5 } }), 400, /description: must be a string/],
    ['no file name and bad Base64', JSON.stringify({ resource: { description: 'x', file: { ...fileJson('*'), file_name: '' } } }), 400, /file\.file_name: required/],
    ['no content type and bad Base64', JSON.stringify({ resource: { description: 'x', file: { ...fileJson('*'), content_type: undefined } } }), 400, /file\.content_type: required/],
    ['a compressed file and bad Base64', JSON.stringify({ resource: { description: 'x', file: { ...fileJson('*'), content_type: ['text/plain', 'gzip'] } } }), 415, /compressed files \(gzip\)/],
    ['no file data', JSON.stringify({ resource: { description: 'x', file: { ...fileJson(), file_data: undefined } } }), 400, /file\.file_data: required/],
    ['file data that is not a string', JSON.stringify({ resource: { description: 'x', file: { ...fileJson(), file_data: ['QUJD'] } } }), 400, /file\.file_data: required/],
    ['invalid Base64', JSON.stringify({ resource: { description: 'x', file: fileJson('QUJDR') } }), 400, /file\.file_data: not valid Base64/],
    ['malformed JSON', '{"resource": ', 400, /Malformed JSON/],
  ])('refuses %s as before, sending nothing', async (_name, body, status, message) => {
    const res = await call('POST', '/api/resources.json', body);
    expect(res.status).toBe(status);
    expect(res.body).toMatch(message);
    expect(received).toEqual([]);
  });

  it('refuses a file just over the limit with its exact size, and takes one at the limit', async () => {
    const over = await call('POST', '/api/resources.json', JSON.stringify({ resource: { description: 'x', file: fileJson(Buffer.alloc(maxFileBytes + 1).toString('base64')) } }));
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).message).toBe(`file.file_data: the file is ${maxFileBytes + 1} bytes; the largest accepted is ${maxFileBytes} bytes`);
    const atLimit = await call('POST', '/api/resources.json', JSON.stringify({ resource: { description: 'x', file: fileJson(Buffer.alloc(maxFileBytes, 1).toString('base64')) } }));
    expect(atLimit.status).toBe(201);
    expect(received[0]!.attachment?.equals(Buffer.alloc(maxFileBytes, 1))).toBe(true);
  });

  it('reads resource bodies larger than the global limit, and lists without a body', async () => {
    const res = await call('POST', '/api/resources.json', JSON.stringify({ resource: { description: 'x'.repeat(2000), file: fileJson() } }));
    expect(res.status).toBe(201);
    expect((await call('GET', '/api/resources.json')).status).toBe(200);
  });

  it('answers 404 for an id that is none before reading the body', async () => {
    expect((await call('PUT', '/api/resources/abc.json', JSON.stringify({ resource: { description: 'x' } }))).status).toBe(404);
  });

  it('refuses XML with 415', async () => {
    const res = await call('POST', '/api/resources.json', '<resource/>', 'application/xml');
    expect(res.status).toBe(415);
    expect(res.body).toMatch(/not XML/);
  });
});
