import { connectMongo } from '@formcast/storage';
import type { MongoForSuite } from './describe-with-mongo';
import { uniqueName } from './unique-name';

/**
 * For a `describeWithMongo` suite: a function giving a new database name (`<prefix>_…`) at
 * each call, every one of them dropped after the suite.
 */
export function mongoTestDatabases(mongo: MongoForSuite, prefix: string): () => string {
  const databases: string[] = [];
  afterAll(async () => {
    const admin = await connectMongo(mongo.url());
    try {
      for (const name of databases) await admin.useDb(name).dropDatabase();
    } finally {
      await admin.close();
    }
  });
  return () => {
    const name = uniqueName(prefix);
    databases.push(name);
    return name;
  };
}
