import { mongoForTestsAvailability, mongoUrlForTests, stopMongoForTests } from './mongo-for-tests';

export interface MongoForSuite {
  /** The MongoDB URL; available from the suite's `beforeAll` hooks on. */
  url(): string;
}

let skipAnnounced = false;
const startTimeoutMs = 180_000;

/**
 * A `describe` that runs against real MongoDB (see `mongoUrlForTests`). Without one, the
 * suite is replaced by a single skipped test whose title says why, and the reason is printed
 * once per test file. It goes to stderr directly because jest hides the console output of a
 * file whose tests were all skipped, which would make the skip silent.
 */
export function describeWithMongo(name: string, fn: (mongo: MongoForSuite) => void): void {
  const availability = mongoForTestsAvailability();
  if (availability !== true) {
    if (!skipAnnounced) {
      skipAnnounced = true;
      process.stderr.write(`\n${name}: ${availability.skipped}\n`);
    }
    describe(name, () => {
      it.skip(availability.skipped, () => undefined);
    });
    return;
  }

  describe(name, () => {
    let url: string | undefined;
    beforeAll(async () => {
      const found = await mongoUrlForTests();
      if (typeof found !== 'string') throw new Error(found.skipped);
      url = found;
    }, startTimeoutMs);
    fn({
      url: () => {
        if (url === undefined) throw new Error('The MongoDB URL is known only from beforeAll on');
        return url;
      },
    });
    // Declared after the suite's own hooks so it runs after them: jest runs afterAll hooks
    // of one block in declaration order, and the suite's cleanup still needs the server.
    afterAll(() => stopMongoForTests(), startTimeoutMs);
  });
}
