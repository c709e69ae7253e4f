import { createHash, randomUUID } from 'node:crypto';
import { isAppError } from '@formcast/platform';
import type { CheckedFile, ContentTable } from '../../src/domain/records';
import type { ResourceStore } from '../../src/store';

/**
 * The behaviour every ResourceStore adapter must have: one suite, run against each adapter
 * (see the port's doc comment in src/store/resource-store.ts for the rules checked here).
 * `makeStore` gives a fresh, empty store for each test; the suite closes it afterwards.
 */
export function describeResourceStoreContract(name: string, makeStore: () => Promise<ResourceStore>): void {
  describe(name, () => {
    let store: ResourceStore;

    beforeEach(async () => {
      store = await makeStore();
    });

    afterEach(async () => {
      await store.close();
    });

    // Fixtures ---------------------------------------------------------------------------

    const orgId = 11;
    const otherOrgId = 12;
    const unknownId = 987654;

    function summary(tableName: string): ContentTable[] {
      return [
        {
          tableName,
          sheetName: 'Sheet1',
          id: randomUUID(),
          columns: [
            { name: 'test_options', number: 1, id: randomUUID() },
            { name: 'price', number: 3, id: randomUUID() },
          ],
        },
      ];
    }

    function file(content: string | Buffer, extra: Partial<CheckedFile> = {}): CheckedFile {
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
      return {
        originalFilename: 'notes.txt',
        contentType: 'text/plain',
        bytes,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        identifier: randomUUID(),
        contentSummary: [],
        ...extra,
      };
    }

    async function expectNotFound(promise: Promise<unknown>, id: number): Promise<void> {
      const error = await promise.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isAppError(error) ? [error.code, error.message] : error).toEqual(['not_found', `Resource ${id} does not exist`]);
    }

    // Create and read ---------------------------------------------------------------------

    it('creates a resource at version 0 with its metadata, and keeps its bytes apart', async () => {
      const stored = file('first notes', { originalFilename: 'Notes — été.txt' });
      const resource = await store.createResource(orgId, { description: 'Site notes', file: stored }, randomUUID());
      expect(resource).toEqual({
        id: expect.any(Number),
        orgId,
        originalFilename: 'Notes — été.txt',
        description: 'Site notes',
        contentType: 'text/plain',
        version: 0,
        identifier: stored.identifier,
        byteSize: stored.bytes.length,
        sha256: stored.sha256,
        contentSummary: [],
        createdAt: expect.any(String),
        updatedAt: resource.createdAt,
      });
      expect(await store.getResource(orgId, resource.id)).toEqual(resource);
      const read = await store.readResourceFile(orgId, resource.id);
      expect(read?.resource).toEqual(resource);
      expect(read?.bytes.toString('utf8')).toBe('first notes');
    });

    it('keeps binary bytes, an empty file and a spreadsheet summary exactly', async () => {
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const sheet = file(binary, { originalFilename: 'test_resource.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', contentSummary: summary('test_resource.Sheet1') });
      const spreadsheet = await store.createResource(orgId, { description: '', file: sheet }, randomUUID());
      expect(spreadsheet.contentSummary).toEqual(sheet.contentSummary);
      expect((await store.readResourceFile(orgId, spreadsheet.id))?.bytes.equals(binary)).toBe(true);
      expect((await store.getResource(orgId, spreadsheet.id))?.contentSummary).toEqual(sheet.contentSummary);

      const empty = await store.createResource(orgId, { description: 'empty', file: file('') }, randomUUID());
      expect((await store.readResourceFile(orgId, empty.id))?.bytes.length).toBe(0);
    });

    it('lists an organization\'s resources ascending by id, and only its own', async () => {
      const a = await store.createResource(orgId, { description: 'a', file: file('a') }, randomUUID());
      await store.createResource(otherOrgId, { description: 'other', file: file('x') }, randomUUID());
      const b = await store.createResource(orgId, { description: 'b', file: file('b') }, randomUUID());
      expect(b.id).toBeGreaterThan(a.id);
      expect(await store.listResources(orgId)).toEqual([a, b]);
      expect((await store.listResources(otherOrgId)).map((r) => r.description)).toEqual(['other']);
      expect(await store.listResources(99)).toEqual([]);
    });

    it('creates once per command: a redelivered create returns the first resource', async () => {
      const commandId = randomUUID();
      const first = await store.createResource(orgId, { description: 'once', file: file('1') }, commandId);
      const again = await store.createResource(orgId, { description: 'once', file: file('1') }, commandId);
      expect(again).toEqual(first);
      expect(await store.listResources(orgId)).toHaveLength(1);
    });

    it('creates once when two deliveries of one create run at the same time (an AMQP requeue during an upload)', async () => {
      const commandId = randomUUID();
      const bytes = Buffer.alloc(600 * 1024, 7); // several GridFS chunks: the upload takes a while
      const [a, b] = await Promise.all([
        store.createResource(orgId, { description: 'raced', file: file(bytes) }, commandId),
        store.createResource(orgId, { description: 'raced', file: file(bytes) }, commandId),
      ]);
      expect(b).toEqual(a);
      expect(await store.listResources(orgId)).toEqual([a]);
      expect((await store.readResourceFile(orgId, a.id))?.bytes.equals(bytes)).toBe(true);
    });

    // Update ------------------------------------------------------------------------------

    it('changes only the description when no file is given: version, identifier and bytes stay', async () => {
      const created = await store.createResource(orgId, { description: 'old', file: file('bytes') }, randomUUID());
      const updated = await store.updateResource(orgId, created.id, { description: 'new' }, randomUUID());
      expect(updated).toEqual({ ...created, description: 'new', updatedAt: expect.any(String) });
      expect((await store.readResourceFile(orgId, created.id))?.bytes.toString()).toBe('bytes');
    });

    it('replaces the file: new bytes, name, type, identifier and summary, version + 1 each time', async () => {
      const created = await store.createResource(orgId, { description: 'd', file: file('v0') }, randomUUID());
      const next = file(Buffer.from([1, 2, 3]), {
        originalFilename: 'prices.xlsx',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        contentSummary: summary('prices.Sheet1'),
      });
      const v1 = await store.updateResource(orgId, created.id, { file: next }, randomUUID());
      expect(v1).toMatchObject({
        id: created.id,
        description: 'd',
        version: 1,
        originalFilename: 'prices.xlsx',
        contentType: next.contentType,
        identifier: next.identifier,
        byteSize: 3,
        sha256: next.sha256,
        contentSummary: next.contentSummary,
        createdAt: created.createdAt,
      });
      expect(await store.getResource(orgId, created.id)).toEqual(v1);
      expect((await store.readResourceFile(orgId, created.id))?.bytes).toEqual(Buffer.from([1, 2, 3]));

      const v2 = await store.updateResource(orgId, created.id, { description: 'both', file: file('v2') }, randomUUID());
      expect(v2).toMatchObject({ version: 2, description: 'both', originalFilename: 'notes.txt', contentSummary: [] });
      expect((await store.readResourceFile(orgId, created.id))?.bytes.toString()).toBe('v2');
    });

    it('updates once per command: a redelivered update does not bump the version again', async () => {
      const created = await store.createResource(orgId, { description: 'd', file: file('v0') }, randomUUID());
      const commandId = randomUUID();
      const once = await store.updateResource(orgId, created.id, { file: file('v1') }, commandId);
      const twice = await store.updateResource(orgId, created.id, { file: file('v1 again') }, commandId);
      expect(twice).toEqual(once);
      expect(twice.version).toBe(1);
      expect((await store.readResourceFile(orgId, created.id))?.bytes.toString()).toBe('v1');
    });

    it('updates once when two deliveries of one update run at the same time: version + 1, not + 2', async () => {
      const created = await store.createResource(orgId, { description: 'd', file: file('v0') }, randomUUID());
      const commandId = randomUUID();
      const [a, b] = await Promise.all([
        store.updateResource(orgId, created.id, { file: file('v1') }, commandId),
        store.updateResource(orgId, created.id, { file: file('v1') }, commandId),
      ]);
      expect([a.version, b.version]).toEqual([1, 1]);
      expect(await store.getResource(orgId, created.id)).toMatchObject({ version: 1 });
      expect((await store.readResourceFile(orgId, created.id))?.bytes.toString()).toBe('v1');
    });

    it('updates a description once when two deliveries of it run at the same time', async () => {
      const created = await store.createResource(orgId, { description: 'd', file: file('v0') }, randomUUID());
      const commandId = randomUUID();
      const [a, b] = await Promise.all([
        store.updateResource(orgId, created.id, { description: 'e' }, commandId),
        store.updateResource(orgId, created.id, { description: 'e' }, commandId),
      ]);
      expect([a.description, b.description, a.version, b.version]).toEqual(['e', 'e', 0, 0]);
    });

    // Delete ------------------------------------------------------------------------------

    it('deletes a resource with its bytes', async () => {
      const kept = await store.createResource(orgId, { description: 'kept', file: file('k') }, randomUUID());
      const gone = await store.createResource(orgId, { description: 'gone', file: file('g') }, randomUUID());
      await store.deleteResource(orgId, gone.id);
      expect(await store.getResource(orgId, gone.id)).toBeNull();
      expect(await store.readResourceFile(orgId, gone.id)).toBeNull();
      expect(await store.listResources(orgId)).toEqual([kept]);
      await expectNotFound(store.deleteResource(orgId, gone.id), gone.id);
    });

    // Organization scope ------------------------------------------------------------------

    it('treats another organization\'s resource exactly as an unknown one, changing nothing', async () => {
      const theirs = await store.createResource(otherOrgId, { description: 'theirs', file: file('t') }, randomUUID());
      expect(await store.getResource(orgId, theirs.id)).toBeNull();
      expect(await store.readResourceFile(orgId, theirs.id)).toBeNull();
      await expectNotFound(store.updateResource(orgId, theirs.id, { description: 'mine now' }, randomUUID()), theirs.id);
      await expectNotFound(store.updateResource(orgId, theirs.id, { file: file('mine') }, randomUUID()), theirs.id);
      await expectNotFound(store.deleteResource(orgId, theirs.id), theirs.id);
      expect(await store.getResource(otherOrgId, theirs.id)).toEqual(theirs);
      expect((await store.readResourceFile(otherOrgId, theirs.id))?.bytes.toString()).toBe('t');
    });

    it('answers not_found for unknown ids', async () => {
      expect(await store.getResource(orgId, unknownId)).toBeNull();
      expect(await store.readResourceFile(orgId, unknownId)).toBeNull();
      await expectNotFound(store.updateResource(orgId, unknownId, { description: 'x' }, randomUUID()), unknownId);
      await expectNotFound(store.deleteResource(orgId, unknownId), unknownId);
    });

    it('answers ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
