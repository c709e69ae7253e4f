import { createHash, randomUUID } from 'node:crypto';
import type { Envelope, SubmissionReceivedPayload } from '@formcast/contracts';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import type { Submission } from '../../src/domain/records';
import { submissionReceivedEvent } from '../../src/domain/submission-events';
import { acceptedSubmission, type SubmissionRequest } from '../../src/domain/submission-rules';
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

    /** A submission of device 10 (org 1) naming these images, as the handlers save it. */
    function submitNaming(namedImages: string[], deviceId = 10, on: PushStore = store): Promise<Submission> {
      const request: SubmissionRequest = {
        device: { id: deviceId, orgId: 1, identifier: `Android_${deviceId}`, owner: 'Ada', groupIds: [1] },
        form: { id: 7, namespace: 'http://forms.example.com/survey', name: 'Survey', version: '1.00', groupId: 1 },
        oneshotId: null,
        clientSubmissionId: randomUUID(),
        answers: Object.fromEntries(namedImages.map((identifier, i) => [`photo${i}`, identifier])),
      };
      return on.submit(
        { orgId: 1, deviceId, oneshotId: null, clientSubmissionId: request.clientSubmissionId },
        (loaded) => acceptedSubmission(loaded, request, new Date().toISOString()),
        { completed: oneshotEvent('push.oneshot.completed', null, 'req'), received: submissionReceivedEvent('req'), namedImages },
        randomUUID(),
      );
    }

    async function received(from: PushStore = store): Promise<Array<SubmissionReceivedPayload>> {
      return (await from.unpublishedEvents(1000))
        .map((entry) => entry.event as Envelope<SubmissionReceivedPayload>)
        .filter((event) => event.type === 'push.submission.received')
        .map((event) => event.payload);
    }

    describe('submissions waiting for their images', () => {
      it('holds the received event of a submission until the last image it names is stored, then writes it once, listing them', async () => {
        const submission = await submitNaming(['front', 'back']);
        expect(await received()).toEqual([]);
        expect(await store.images.awaited(1, submission.id)).toEqual(['front', 'back']);
        const back = imageOf(jpeg(2), { imageIdentifier: 'back' });
        await store.images.save(back, jpeg(2));
        expect(await received()).toEqual([]);
        expect(await store.images.awaited(1, submission.id)).toEqual(['front']);
        const front = imageOf(jpeg(1), { imageIdentifier: 'front' });
        await store.images.save(front, jpeg(1));
        const events = await received();
        expect(events.map((event) => [event.submissionId, event.images])).toEqual([
          [
            submission.id,
            [
              { image_identifier: 'front', uuid: front.uuid, content_type: 'image/jpeg', size: 2048, md5: front.md5 },
              { image_identifier: 'back', uuid: back.uuid, content_type: 'image/jpeg', size: 2048, md5: back.md5 },
            ],
          ],
        ]);
        expect(await store.images.awaited(1, submission.id)).toEqual([]);
        // The same image again writes nothing more.
        await store.images.save(imageOf(jpeg(3), { imageIdentifier: 'front' }), jpeg(3));
        expect(await received()).toHaveLength(1);
      });

      it('writes the event at once when every image it names is already stored, and at once when it names none', async () => {
        const early = imageOf(jpeg(1), { imageIdentifier: 'early' });
        await store.images.save(early, jpeg(1));
        const naming = await submitNaming(['early']);
        const plain = await submitNaming([]);
        const events = await received();
        expect(events.map((event) => [event.submissionId, event.images?.map((image) => image.uuid)])).toEqual([
          [naming.id, [early.uuid]],
          [plain.id, undefined],
        ]);
      });

      it("is released only by its own device's image, in its own organization", async () => {
        const submission = await submitNaming(['shared']);
        await store.images.save(imageOf(jpeg(1), { imageIdentifier: 'shared', deviceId: 11, deviceIdentifier: 'Android_11' }), jpeg(1));
        await store.images.save(imageOf(jpeg(2), { imageIdentifier: 'shared', orgId: 2 }), jpeg(2));
        expect(await received()).toEqual([]);
        expect(await store.images.awaited(1, submission.id)).toEqual(['shared']);
        expect(await store.images.awaited(2, submission.id)).toEqual([]);
      });

      it('releases every submission of the device waiting for the same image', async () => {
        const first = await submitNaming(['logo']);
        const second = await submitNaming(['logo', 'other']);
        await store.images.save(imageOf(jpeg(1), { imageIdentifier: 'logo' }), jpeg(1));
        expect((await received()).map((event) => event.submissionId)).toEqual([first.id]);
        await store.images.save(imageOf(jpeg(2), { imageIdentifier: 'other' }), jpeg(2));
        expect((await received()).map((event) => event.submissionId)).toEqual([first.id, second.id]);
      });
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

      it('keeps a waiting submission waiting across a reopen, and releases it after', async () => {
        const submission = await submitNaming(['late']);
        await store.close();
        opened.splice(opened.indexOf(store), 1);
        const again = await reopen(store);
        opened.push(again);
        expect(await again.images.awaited(1, submission.id)).toEqual(['late']);
        await again.images.save(imageOf(jpeg(1), { imageIdentifier: 'late' }), jpeg(1));
        expect((await received(again)).map((event) => event.submissionId)).toEqual([submission.id]);
      });
    }
  });
}
