import { AppError } from '@formcast/platform';
import { endWritable } from '@formcast/storage';
import { mongo, type Connection, type Model } from 'mongoose';
import type { SubmissionImageDoc } from './mongo-models';
import type { SubmissionImage, SubmissionImageStore } from './submission-image-store';

/** The GridFS bucket of the images' bytes: `submission_image_files.files` and `.chunks`. */
export const submissionImageFilesBucket = 'submission_image_files';

const fromDoc = ({ _id, fileId: _fileId, ...fields }: SubmissionImageDoc): SubmissionImage => ({ uuid: _id, ...fields });

/**
 * Submission images on MongoDB: records in `submission_images`, bytes in GridFS, as the
 * resources keep theirs. GridFS writes cannot join a transaction, so a save orders its
 * steps: the new file is written whole first, then the record is pointed at it in one
 * update, then the file it replaced is deleted. A process dying between two steps leaves
 * at most an unreferenced file (its metadata names the image), never a record without bytes.
 */
export class MongoSubmissionImages implements SubmissionImageStore {
  constructor(
    private readonly connection: Connection,
    private readonly model: Model<SubmissionImageDoc>,
  ) {}

  async save(image: SubmissionImage, bytes: Buffer): Promise<SubmissionImage> {
    const { uuid, ...fields } = image;
    const fileId = await this.upload(image, bytes);
    const key = { orgId: image.orgId, deviceId: image.deviceId, imageIdentifier: image.imageIdentifier };
    let before: SubmissionImageDoc | null;
    try {
      before = await this.model
        .findOneAndUpdate(key, { $set: { ...fields, fileId }, $setOnInsert: { _id: uuid } }, { upsert: true, returnDocument: 'before' })
        .lean<SubmissionImageDoc>()
        .exec();
    } catch (error) {
      await this.deleteFile(fileId).catch(() => undefined);
      throw error;
    }
    if (before) await this.deleteFile(before.fileId).catch(() => undefined);
    return { ...image, uuid: before?._id ?? uuid };
  }

  async find(orgId: number, deviceId: number, imageIdentifier: string): Promise<SubmissionImage | null> {
    const doc = await this.model.findOne({ orgId, deviceId, imageIdentifier }).lean<SubmissionImageDoc>().exec();
    return doc ? fromDoc(doc) : null;
  }

  async read(orgId: number, uuid: string): Promise<{ image: SubmissionImage; bytes: Buffer } | null> {
    // A save between the record's read and the file's may delete the file read: read again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const doc = await this.model.findOne({ _id: uuid, orgId }).lean<SubmissionImageDoc>().exec();
      if (!doc) return null;
      const bytes = await this.download(doc.fileId, doc.size);
      if (bytes) return { image: fromDoc(doc), bytes };
    }
    throw new Error(`The bytes of submission image ${uuid} are missing or incomplete`);
  }

  private bucket(): mongo.GridFSBucket {
    const db = this.connection.db;
    if (!db) throw new AppError('unavailable', 'The push database is not connected');
    return new mongo.GridFSBucket(db, { bucketName: submissionImageFilesBucket });
  }

  private async upload(image: SubmissionImage, bytes: Buffer): Promise<mongo.ObjectId> {
    const upload = this.bucket().openUploadStream(`submission-image-${image.uuid}`, {
      metadata: { orgId: image.orgId, deviceId: image.deviceId, imageIdentifier: image.imageIdentifier },
    });
    try {
      await endWritable(upload, bytes);
    } catch (error) {
      await this.deleteFile(upload.id).catch(() => undefined);
      throw error;
    }
    return upload.id;
  }

  /** The file's bytes; null when it is gone or shorter than the record says (replaced while read). */
  private async download(fileId: mongo.ObjectId, size: number): Promise<Buffer | null> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of this.bucket().openDownloadStream(fileId)) chunks.push(chunk as Buffer);
    } catch (error) {
      const message = String((error as { message?: unknown } | null)?.message ?? '');
      if (/file ?not ?found/i.test(message) || message.startsWith('ChunkIsMissing')) return null;
      throw error;
    }
    const bytes = Buffer.concat(chunks);
    return bytes.length === size ? bytes : null;
  }

  private async deleteFile(fileId: mongo.ObjectId): Promise<void> {
    try {
      await this.bucket().delete(fileId);
    } catch (error) {
      if (!/file ?not ?found/i.test(String((error as { message?: unknown } | null)?.message ?? ''))) throw error;
    }
  }
}
