import type { Envelope, SubmissionReceivedPayload } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { deleteGridFsFile, downloadGridFsFile, uploadGridFsFile } from '@formcast/storage';
import { mongo, type ClientSession, type Connection } from 'mongoose';
import type { Submission } from '../domain/records';
import { withSubmissionImages, type AnnouncedImage } from '../domain/submission-events';
import type { PushModels, SubmissionImageDoc, SubmissionImageWaitDoc } from './mongo-models';
import type { SubmissionImage, SubmissionImageStore } from './submission-image-store';

/** The GridFS bucket of the images' bytes: `submission_image_files.files` and `.chunks`. */
export const submissionImageFilesBucket = 'submission_image_files';

const fromDoc = ({ _id, fileId: _fileId, ...fields }: SubmissionImageDoc): SubmissionImage => ({ uuid: _id, ...fields });

/** What the push store lends: its transactions and its outbox. */
export interface MongoImageStoreHooks {
  transaction<T>(change: (session: ClientSession) => Promise<T>): Promise<T>;
  appendEvents(events: Envelope[], session: ClientSession): Promise<void>;
}

type ImageModels = Pick<PushModels, 'SubmissionImage' | 'SubmissionImageWait' | 'SubmissionImageEpoch'>;

/**
 * Submission images on MongoDB: records in `submission_images`, bytes in GridFS, as the
 * resources keep theirs, and the submissions waiting for them in `submission_image_waits`.
 * GridFS writes cannot join a transaction, so a save orders its steps: the new file is
 * written whole first; then one transaction points the record at it and releases the
 * submissions that waited for it (their events to the outbox); then the file it replaced is
 * deleted. A process dying between two steps leaves at most an unreferenced file (its
 * metadata names the image), never a record without bytes.
 */
export class MongoSubmissionImages implements SubmissionImageStore {
  constructor(
    private readonly connection: Connection,
    private readonly models: ImageModels,
    private readonly hooks: MongoImageStoreHooks,
  ) {}

  async save(image: SubmissionImage, bytes: Buffer): Promise<SubmissionImage> {
    const { uuid, ...fields } = image;
    const fileId = await this.upload(image, bytes);
    const key = { orgId: image.orgId, deviceId: image.deviceId, imageIdentifier: image.imageIdentifier };
    let before: SubmissionImageDoc | null;
    try {
      before = await this.hooks.transaction(async (session) => {
        const found = await this.models.SubmissionImage.findOneAndUpdate(key, { $set: { ...fields, fileId }, $setOnInsert: { _id: uuid } }, {
          upsert: true,
          returnDocument: 'before',
          session,
        }).lean<SubmissionImageDoc>();
        await this.touchDevice(image.orgId, image.deviceId, session);
        await this.release(image.orgId, image.deviceId, image.imageIdentifier, session);
        return found;
      });
    } catch (error) {
      await this.deleteFile(fileId).catch(() => undefined);
      throw error;
    }
    if (before && !before.fileId.equals(fileId)) await this.deleteFile(before.fileId).catch(() => undefined);
    return { ...image, uuid: before?._id ?? uuid };
  }

  async find(orgId: number, deviceId: number, imageIdentifier: string): Promise<SubmissionImage | null> {
    const doc = await this.models.SubmissionImage.findOne({ orgId, deviceId, imageIdentifier }).lean<SubmissionImageDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async awaited(orgId: number, submissionId: number): Promise<string[]> {
    const doc = await this.models.SubmissionImageWait.findOne({ _id: submissionId, orgId }).lean<SubmissionImageWaitDoc>();
    return doc?.awaiting ?? [];
  }

  async read(orgId: number, uuid: string): Promise<{ image: SubmissionImage; bytes: Buffer } | null> {
    // A save between the record's read and the file's may delete the file read: read again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const doc = await this.models.SubmissionImage.findOne({ _id: uuid, orgId }).lean<SubmissionImageDoc>();
      if (!doc) return null;
      const bytes = await this.download(doc.fileId, doc.size);
      if (bytes) return { image: fromDoc(doc), bytes };
    }
    throw new Error(`The bytes of submission image ${uuid} are missing or incomplete`);
  }

  /** Inside submit's transaction: the event, with its images, to the outbox when all are stored; else held. */
  async announceOrHold(submission: Submission, event: Envelope<SubmissionReceivedPayload>, named: string[], session: ClientSession): Promise<void> {
    if (named.length === 0) {
      await this.hooks.appendEvents([event], session);
      return;
    }
    await this.touchDevice(submission.orgId, submission.deviceId, session);
    const stored = await this.storedImages(submission.orgId, submission.deviceId, named, session);
    const awaiting = named.filter((identifier) => !stored.some((image) => image.imageIdentifier === identifier));
    if (awaiting.length === 0) {
      await this.hooks.appendEvents([withSubmissionImages(event, stored)], session);
      return;
    }
    await this.models.SubmissionImageWait.create([{ _id: submission.id, orgId: submission.orgId, deviceId: submission.deviceId, named, awaiting, event }], { session });
  }

  /** The device's submissions waiting for the image wait for one less; those complete are announced. */
  private async release(orgId: number, deviceId: number, imageIdentifier: string, session: ClientSession): Promise<void> {
    const { SubmissionImageWait } = this.models;
    // submission_image_waits: { orgId, deviceId, awaiting }.
    const waits = await SubmissionImageWait.find({ orgId, deviceId, awaiting: imageIdentifier }).session(session).lean<SubmissionImageWaitDoc[]>();
    for (const wait of waits) {
      const awaiting = wait.awaiting.filter((identifier) => identifier !== imageIdentifier);
      if (awaiting.length > 0) {
        await SubmissionImageWait.updateOne({ _id: wait._id }, { $set: { awaiting } }, { session });
        continue;
      }
      const images = await this.storedImages(orgId, deviceId, wait.named, session);
      await this.hooks.appendEvents([withSubmissionImages(wait.event as Envelope<SubmissionReceivedPayload>, images)], session);
      await SubmissionImageWait.deleteOne({ _id: wait._id }, { session });
    }
  }

  /** See SubmissionImageEpochDoc: makes a submission's and an image's transactions of one device conflict. */
  private async touchDevice(orgId: number, deviceId: number, session: ClientSession): Promise<void> {
    await this.models.SubmissionImageEpoch.updateOne({ _id: `${orgId}:${deviceId}` }, { $inc: { n: 1 } }, { upsert: true, session });
  }

  /** Those of the named images the device has stored, in the order named. */
  private async storedImages(orgId: number, deviceId: number, named: string[], session: ClientSession): Promise<AnnouncedImage[]> {
    const docs = await this.models.SubmissionImage.find({ orgId, deviceId, imageIdentifier: { $in: named } })
      .session(session)
      .lean<SubmissionImageDoc[]>();
    return named.flatMap((identifier) =>
      docs
        .filter((doc) => doc.imageIdentifier === identifier)
        .map((doc) => ({ imageIdentifier: doc.imageIdentifier, uuid: doc._id, contentType: doc.contentType, size: doc.size, md5: doc.md5 })),
    );
  }

  private bucket(): mongo.GridFSBucket {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', 'The push database is not connected');
    return new mongo.GridFSBucket(db, { bucketName: submissionImageFilesBucket });
  }

  private upload(image: SubmissionImage, bytes: Buffer): Promise<mongo.ObjectId> {
    return uploadGridFsFile(this.bucket(), `submission-image-${image.uuid}`, bytes, {
      orgId: image.orgId,
      deviceId: image.deviceId,
      imageIdentifier: image.imageIdentifier,
    });
  }

  /** The file's bytes; null when it is gone or shorter than the record says (replaced while read). */
  private download(fileId: mongo.ObjectId, size: number): Promise<Buffer | null> {
    return downloadGridFsFile(this.bucket(), fileId, size);
  }

  private deleteFile(fileId: mongo.ObjectId): Promise<void> {
    return deleteGridFsFile(this.bucket(), fileId);
  }
}
