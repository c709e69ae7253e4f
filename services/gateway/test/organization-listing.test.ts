import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InProcessBus } from '@formcast/bus';
import { directoryCommands, organizationOneshotsPageLimit as page, pushCommands, type OutstandingOneshotView } from '@formcast/contracts';
import { AppError, createLogger } from '@formcast/platform';
import { createGatewayApp } from '../src/http/create-app';
import { renderOutstandingXml } from '../src/render/oneshots-xml';
import { outstandingJsonWriter, outstandingXmlWriter } from '../src/render/outstanding-stream';

const tricky = ['', 'plain', 'a&b<c>d"e\'f', '&amp;', ' spaced  out\ttab\nline', 'é ü 日本', ']]>'];

function views(count: number, orgId = 7): OutstandingOneshotView[] {
  return Array.from({ length: count }, (_, i) => ({
    description: tricky[i % tricky.length]!,
    device_id: 1 + (i % 13),
    id: 3 * i + 1,
    name: tricky[(i + 3) % tricky.length]! || 'Inspection',
    namespace: `http://formcast.local/xforms/${i}?v=1&x=${tricky[(i + 5) % tricky.length]}`,
    organization_id: orgId,
  }));
}

function writeInPages(writer: ReturnType<typeof outstandingXmlWriter>, list: OutstandingOneshotView[], pageSize: number): string {
  const pages: OutstandingOneshotView[][] = [];
  for (let i = 0; i < list.length; i += pageSize) pages.push(list.slice(i, i + pageSize));
  if (pages.length === 0 || pages.at(-1)!.length === pageSize) pages.push([]);
  let out = writer.open(pages[0]!);
  for (const page of pages) out += writer.items(page);
  return out + writer.close();
}

describe('the organization listing, written page by page', () => {
  it.each([0, 1, 2, 7, 30])('is the whole list rendered at once (%i oneshots), in XML and JSON, however it is paged', (count) => {
    const list = views(count);
    for (const pageSize of [1, 3, 1000]) {
      expect(writeInPages(outstandingXmlWriter(), list, pageSize)).toBe(renderOutstandingXml(list));
      expect(writeInPages(outstandingJsonWriter(), list, pageSize)).toBe(JSON.stringify(list));
    }
  });
});

describe('GET /organizations/<org>/oneshots through the gateway', () => {
  const orgId = 7;
  let bus: InProcessBus;
  let server: Server;
  let origin: string;
  let all: OutstandingOneshotView[] = [];
  let asked: Array<{ afterId?: number; limit?: number }> = [];
  let failAfter: number | null = null;

  beforeAll(async () => {
    const logger = createLogger({ level: 'silent' });
    bus = new InProcessBus({ logger });
    bus.handleCommand('directory', directoryCommands.authenticateToken, async () => ({ orgId }));
    bus.handleCommand('push', pushCommands.listOrganizationOneshots, async (command) => {
      const { afterId = 0, limit } = command.payload as { afterId?: number; limit?: number };
      asked.push({ afterId, limit });
      if (failAfter !== null && afterId >= failAfter) throw new AppError('timeout', 'push did not answer');
      const after = all.filter((o) => o.id > afterId);
      return limit === undefined ? after : after.slice(0, limit);
    });
    await bus.start();
    const app = createGatewayApp({ bus, logger, adminToken: 'admin-token-0123456789abcdef', commandTimeoutMs: 2000, bodyLimitBytes: 1 << 20 });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await bus.close();
  });
  beforeEach(() => {
    asked = [];
    failAfter = null;
  });

  const auth = { Authorization: `Basic ${Buffer.from('a-token:x').toString('base64')}` };

  function fetchList(path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string; complete: boolean }> {
    return new Promise((resolve, reject) => {
      get(`${origin}${path}`, { headers: auth }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, complete: res.complete }));
        res.on('error', () => resolve({ status: res.statusCode!, headers: res.headers, body, complete: false }));
        res.on('aborted', () => resolve({ status: res.statusCode!, headers: res.headers, body, complete: false }));
      }).on('error', reject);
    });
  }

  it('asks the push service page by page and streams every page out, in XML and JSON', async () => {
    all = views(2345, orgId);
    const xml = await fetchList(`/organizations/${orgId}/oneshots`);
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.body).toBe(renderOutstandingXml(all));
    // 2345 = 9 full pages of 250 and one of 95.
    expect(page).toBe(250);
    expect(asked).toEqual(Array.from({ length: 10 }, (_, i) => ({ afterId: i === 0 ? 0 : all[i * page - 1]!.id, limit: page })));

    const json = await fetchList(`/organizations/${orgId}/oneshots.json`);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(json.body)).toEqual(all);
    expect(json.body).toBe(JSON.stringify(all));
  });

  it('answers a list of one page in one piece, with its length; an empty one as an empty array', async () => {
    all = views(3, orgId);
    const small = await fetchList(`/organizations/${orgId}/oneshots`);
    expect(small.body).toBe(renderOutstandingXml(all));
    expect(small.headers['content-length']).toBe(String(Buffer.byteLength(small.body)));
    expect(asked).toHaveLength(1);

    all = [];
    expect((await fetchList(`/organizations/${orgId}/oneshots`)).body).toBe(renderOutstandingXml([]));
    expect((await fetchList(`/organizations/${orgId}/oneshots.json`)).body).toBe('[]');
  });

  it('asks once more after a full last page, and ends the list on the empty answer', async () => {
    all = views(page, orgId);
    expect(JSON.parse((await fetchList(`/organizations/${orgId}/oneshots.json`)).body)).toEqual(all);
    expect(asked.map((a) => a.afterId)).toEqual([0, all[page - 1]!.id]);
  });

  it('a failure on the first page is an ordinary error answer', async () => {
    all = views(10, orgId);
    failAfter = 0;
    const res = await fetchList(`/organizations/${orgId}/oneshots.json`);
    expect(res.status).toBe(504);
    expect(res.complete).toBe(true);
  });

  it('a failure after the first page cuts the connection: the client never takes a shorter list for the whole', async () => {
    all = views(2500, orgId);
    failAfter = all[999]!.id;
    const res = await fetchList(`/organizations/${orgId}/oneshots`);
    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    expect(res.body.endsWith('</forms>\n')).toBe(false);
  });
});
