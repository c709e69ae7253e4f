import { hashSecret } from '@formcast/platform';
import type { Connection } from 'mongoose';

/** An organization as releases before issue 16 kept it: its enrollment code in clear. */
interface LegacyOrganizationDoc {
  _id: number;
  enrollmentCode?: string;
}

/** Unique indexes of older releases that the schemas no longer declare. */
const retiredIndexes = [
  // One enrollment per identifier across organizations; now (orgId, identifier).
  { collection: 'devices', index: 'identifier_1' },
  // The enrollment code in clear; now its hash.
  { collection: 'organizations', index: 'enrollmentCode_1' },
];

/** MongoDB's codes for an index or a collection that is not there. */
const indexNotFound = 27;
const namespaceNotFound = 26;

/**
 * Brings a directory database of an older release up to date, at start, before the first
 * operation (the SQLite side does the same in migrations 3 and 4):
 * - drops the retired unique indexes. `syncIndexes()` at deploy drops them too, but with
 *   autoIndex on nothing else would, and the old identifier index would keep refusing an
 *   identifier another organization has;
 * - replaces every enrollment code kept in clear by its SHA-256. Through the driver, since
 *   the schema no longer knows the field. Each update matches the code it read, so
 *   replicas starting together hash each once. Until then such an organization's code does
 *   not enroll (a few milliseconds at the first start of the new release).
 * Idempotent: once done, it finds nothing to do.
 */
export async function moveLegacyDirectoryShapes(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error('The directory database is not connected');
  for (const { collection, index } of retiredIndexes) {
    try {
      await db.collection(collection).dropIndex(index);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== indexNotFound && code !== namespaceNotFound) throw error;
    }
  }
  const organizations = db.collection<LegacyOrganizationDoc>('organizations');
  const waiting = await organizations
    .find({ enrollmentCode: { $type: 'string' } }, { projection: { _id: 1, enrollmentCode: 1 } })
    .toArray();
  for (const { _id, enrollmentCode } of waiting) {
    if (enrollmentCode === undefined) continue;
    await organizations.updateOne(
      { _id, enrollmentCode },
      { $set: { enrollmentCodeHash: hashSecret(enrollmentCode) }, $unset: { enrollmentCode: '' } },
    );
  }
}
