import { createHash, randomUUID } from 'node:crypto';
import type { PushStore, SubmissionImage } from '../../src/store';

/**
 * What every PushStore adapter must do with submission images (`store.images`): saved with
 * their bytes, one per device and image identifier (the same one again replaces the bytes and
 * keeps the uuid), found by identifier, read by uuid, and never across organizations.
 * `makeStore` gives a fresh, empty store; `reopen`, for durable adapters, a second store on
 * the same data. The suite closes them.
 */
export function describeSubmissionImageStoreContract(
  name: string,
  makeStore: () => Promise<PushStore>,
  options: { reopen?: (store: PushStore) => Promise<PushStore> } = {},
): void {
  describe(name, () => {
    const opened: PushStore[] = [];
    let store: PushStore;

    beforeEach(async () => {
      store = await makeStore();
      opened.push(store);
    });

    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    const jpeg = (fill: number, size = 2048) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, fill)]);
    const imageOf = (bytes: Buffer, fields: Partial<SubmissionImage> = {}): SubmissionImage => ({
      uuid: randomUUID(),
      orgId: 1,
      deviceId: 10,
      deviceIdentifier: 'Android_10',
      imageIdentifier: '1234',
      submissionIdentifier: '5678',
      contentType: 'image/jpeg',
      size: bytes.length,
      md5: createHash('md5').update(bytes).digest('hex'),
      createdAt: new Date().toISOString(),
      ...fields,
    });

    it('saves an image with its bytes, finds it by identifier and reads it by uuid', async () => {
      const bytes = jpeg(1);
      const image = imageOf(bytes);
      expect(await store.images.save(image, bytes)).toEqual(image);
      expect(await store.images.find(1, 10, '1234')).toEqual(image);
      const read = await store.images.read(1, image.uuid);
      expect(read?.image).toEqual(image);
      expect(read?.bytes.equals(bytes)).toBe(true);
    });

    it('replaces the bytes of the same identifier on the same device, keeping the first uuid', async () => {
      const first = imageOf(jpeg(1));
      await store.images.save(first, jpeg(1));
      const secondBytes = jpeg(2, 4096);
      const second = imageOf(secondBytes, { submissionIdentifier: '9999' });
      const saved = await store.images.save(second, secondBytes);
      expect(saved).toEqual({ ...second, uuid: first.uuid });
      const read = await store.images.read(1, first.uuid);
      expect(read?.bytes.equals(secondBytes)).toBe(true);
      expect(read?.image.md5).toBe(second.md5);
      expect(await store.images.read(1, second.uuid)).toBeNull();
    });

    it('keeps the same identifier of another device, or of another organization, apart', async () => {
      const mine = imageOf(jpeg(1));
      const otherDevice = imageOf(jpeg(2), { deviceId: 11, deviceIdentifier: 'Android_11' });
      const otherOrg = imageOf(jpeg(3), { orgId: 2 });
      for (const [image, fill] of [[mine, 1], [otherDevice, 2], [otherOrg, 3]] as const) await store.images.save(image, jpeg(fill));
      expect((await store.images.find(1, 10, '1234'))?.uuid).toBe(mine.uuid);
      expect((await store.images.find(1, 11, '1234'))?.uuid).toBe(otherDevice.uuid);
      expect((await store.images.find(2, 10, '1234'))?.uuid).toBe(otherOrg.uuid);
    });

    it("answers null for an unknown identifier or uuid, and for another organization's image", async () => {
      const image = imageOf(jpeg(1));
      await store.images.save(image, jpeg(1));
      expect(await store.images.find(1, 10, 'nope')).toBeNull();
      expect(await store.images.read(1, randomUUID())).toBeNull();
      expect(await store.images.read(2, image.uuid)).toBeNull();
    });

    if (options.reopen) {
      const reopen = options.reopen;
      it('keeps images and their bytes across a reopen', async () => {
        const bytes = jpeg(7, 300_000);
        const image = imageOf(bytes);
        await store.images.save(image, bytes);
        await store.close();
        opened.splice(opened.indexOf(store), 1);
        const again = await reopen(store);
        opened.push(again);
        expect((await again.images.read(1, image.uuid))?.bytes.equals(bytes)).toBe(true);
      });
    }
  });
}
