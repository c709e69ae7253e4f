import { nextMongoId } from '@formcast/storage';
import type { Connection } from 'mongoose';
import type { Submission } from '../domain/records';
import type { OneshotDoc, PushModels } from './mongo-models';
import { submissionToDoc } from './mongo-push-records';

/** A submission as kept before submissions had ids of their own: `_id` is its oneshot's id. */
interface LegacySubmissionDoc {
  _id: number;
  orgId: number;
  deviceId: number;
  answers: Record<string, unknown>;
  submittedAt: Date;
}

/** Where they were kept; read through the driver, so no model creates the collection where there is none. */
const legacyCollection = 'submissions';

/**
 * Moves the submissions kept before submissions had ids of their own (collection
 * `submissions`, keyed by their oneshot's id) to `form_submissions`, each under the next
 * submission id, with its oneshot's device and form (device owner and form version were
 * not recorded: ''). One transaction each, which finds the old document again and removes
 * it first: replicas starting together move each once (the one that loses finds it gone).
 * Run by the store's start (see MongoStore.start), before any submission is read or written. A
 * submission whose oneshot is missing stays where it is, as the SQLite migration leaves it.
 */
export async function moveLegacySubmissions(connection: Connection, models: PushModels): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error('The push database is not connected');
  const legacy = db.collection<LegacySubmissionDoc>(legacyCollection);
  const waiting = await legacy.find({}, { projection: { _id: 1 } }).sort({ _id: 1 }).toArray();
  for (const { _id } of waiting) {
    await connection.transaction(async (session) => {
      const old = await legacy.findOne({ _id }, { session });
      if (!old) return;
      const oneshot = await models.Oneshot.findOne({ _id: old._id, orgId: old.orgId }).session(session).lean<OneshotDoc>();
      if (!oneshot) return;
      // Removed first: of replicas moving it at once, the others conflict here and retry (then
      // find it gone) before they take a submission id, which is taken outside the transaction.
      const removed = await legacy.deleteOne({ _id }, { session });
      if (removed.deletedCount === 0) return;
      const submittedAt = old.submittedAt.toISOString();
      const moved: Submission = {
        id: await nextMongoId(connection, 'submissions'),
        orgId: old.orgId,
        deviceId: old.deviceId,
        deviceIdentifier: oneshot.deviceIdentifier,
        deviceOwner: '',
        formId: oneshot.formId,
        formNamespace: oneshot.templateNamespace,
        formName: oneshot.name,
        formVersion: '',
        oneshotId: old._id,
        clientSubmissionId: null,
        answers: old.answers,
        submittedAt,
        receivedAt: submittedAt,
      };
      await models.Submission.create([submissionToDoc(moved)], { session });
    });
  }
}
