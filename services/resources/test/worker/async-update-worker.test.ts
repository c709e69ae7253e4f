import { randomUUID } from 'node:crypto';
import { waitFor } from '@formcast/testing';
import { asyncUpdateCommandId } from '../../src/domain/async-update';
import { checkFile } from '../../src/domain/checked-file';
import { SqliteResourceStore } from '../../src/store';
import { AsyncUpdateWorker } from '../../src/worker/async-update-worker';

describe('AsyncUpdateWorker', () => {
  const rules = { maxFileBytes: 1024 };
  let store: SqliteResourceStore;
  beforeEach(() => {
    store = new SqliteResourceStore(':memory:');
  });
  afterEach(() => store.close());

  const queue = (orgId: number, bytes: Buffer, contentType = 'text/plain', commandId = randomUUID()) =>
    store.queueUpdate({ id: randomUUID(), orgId, resourceId: null, description: 'd', file: { file_name: 'a.txt', content_type: contentType }, versionWhenQueued: null }, bytes, commandId, new Date().toISOString());

  it('does the queued creates in order, and fails one whose file is refused, with the reason', async () => {
    const good = await queue(1, Buffer.from('hello'));
    const bad = await queue(1, Buffer.from('not a png'), 'image/png');
    const worker = new AsyncUpdateWorker(store, rules, { pollMs: 20 });
    worker.start();
    try {
      await waitFor(async () => (await store.getUpdate(1, bad.id))?.status === 'failed');
      expect(await store.getUpdate(1, good.id)).toMatchObject({ status: 'completed', resourceId: expect.any(Number), versionWhenCompleted: 0 });
      expect((await store.getUpdate(1, bad.id))?.error).toMatch(/file/);
      expect(await store.listResources(1)).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  it("takes over a job a killed worker left processing once its lease ended, and creates its resource once", async () => {
    const job = await queue(1, Buffer.from('kept'));
    // A worker claimed it and was killed before finishing (its lease: 50 ms).
    const now = Date.now();
    expect((await store.claimUpdate(new Date(now).toISOString(), new Date(now + 50).toISOString()))?.job.id).toBe(job.id);
    // ...and had even created the resource under the job's command id before dying.
    await store.createResource(1, { description: 'd', file: await checkFile(job.file!, Buffer.from('kept'), rules) }, asyncUpdateCommandId(job.id));
    const worker = new AsyncUpdateWorker(store, rules, { pollMs: 20 });
    worker.start();
    try {
      await waitFor(async () => (await store.getUpdate(1, job.id))?.status === 'completed', { timeoutMs: 5000 });
      expect(await store.listResources(1)).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });
});
