import { randomUUID } from 'node:crypto';
import type { NewAsyncUpdate } from '../../src/domain/async-update';
import type { ResourceStore } from '../../src/store';

/**
 * What every adapter must do with v4's queued jobs: kept with their bytes, found by their
 * organization only, claimed once (oldest first) and again only once the claim's lease ended,
 * finished with their bytes dropped. `makeStore` gives a fresh store; the suite closes it.
 */
export function describeAsyncUpdateStoreContract(name: string, makeStore: () => Promise<ResourceStore>): void {
  describe(name, () => {
    let store: ResourceStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => store.close());

    const job = (orgId: number, changes: Partial<NewAsyncUpdate> = {}): NewAsyncUpdate => ({
      id: randomUUID(),
      orgId,
      resourceId: null,
      description: 'd',
      file: { file_name: 'a.txt', content_type: 'text/plain' },
      versionWhenQueued: null,
      ...changes,
    });
    const at = (second: number) => `2030-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

    it('keeps a job once per command, for its organization only', async () => {
      const queued = await store.queueUpdate(job(1), Buffer.from('bytes'), 'cmd-1', at(0));
      expect(queued).toMatchObject({ orgId: 1, status: 'queued', resourceId: null, versionWhenQueued: null, createdAt: at(0) });
      expect(await store.queueUpdate(job(1), Buffer.from('other'), 'cmd-1', at(1))).toEqual(queued);
      expect(await store.getUpdate(1, queued.id)).toEqual(queued);
      expect(await store.getUpdate(2, queued.id)).toBeNull();
    });

    it('claims the oldest unfinished job with its bytes, once, and again only after its lease ended', async () => {
      const first = await store.queueUpdate(job(1), Buffer.from('first'), 'cmd-a', at(0));
      const second = await store.queueUpdate(job(2, { file: null, resourceId: 4, versionWhenQueued: 3 }), undefined, 'cmd-b', at(1));

      const claimed = await store.claimUpdate(at(2), at(10));
      expect(claimed?.job).toMatchObject({ id: first.id, status: 'processing' });
      expect(claimed?.bytes?.toString()).toBe('first');
      const next = await store.claimUpdate(at(2), at(10));
      expect(next).toEqual({ job: expect.objectContaining({ id: second.id, resourceId: 4, versionWhenQueued: 3, file: null }), bytes: undefined });
      expect(await store.claimUpdate(at(5), at(20))).toBeNull();
      // The first's worker died: after its lease, another takes it, bytes and all.
      const again = await store.claimUpdate(at(11), at(30));
      expect(again?.job.id).toBe(first.id);
      expect(again?.bytes?.toString()).toBe('first');
    });

    it('finishes a job completed or failed; a finished job is never claimed again', async () => {
      const done = await store.queueUpdate(job(1), Buffer.from('x'), 'cmd-c', at(0));
      const failed = await store.queueUpdate(job(1), Buffer.from('y'), 'cmd-d', at(1));
      await store.claimUpdate(at(2), at(10));
      await store.claimUpdate(at(2), at(10));
      await store.finishUpdate(done.id, { resourceId: 9, version: 2 }, at(3));
      await store.finishUpdate(failed.id, { error: 'not a PNG' }, at(3));

      expect(await store.getUpdate(1, done.id)).toMatchObject({ status: 'completed', resourceId: 9, versionWhenCompleted: 2, updatedAt: at(3) });
      expect(await store.getUpdate(1, failed.id)).toMatchObject({ status: 'failed', error: 'not a PNG' });
      expect(await store.claimUpdate(at(59), at(60))).toBeNull();
    });
  });
}
