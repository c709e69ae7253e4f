import { isContainerEngineReachable, mongoForTestsAvailability, mongoUrlForTests } from '../src';

describe('mongoUrlForTests', () => {
  const saved = process.env.MONGO_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.MONGO_URL;
    else process.env.MONGO_URL = saved;
  });

  it('uses MONGO_URL when it is set', async () => {
    process.env.MONGO_URL = 'mongodb://mongo.example:27017/?replicaSet=rs0';
    expect(mongoForTestsAvailability()).toBe(true);
    expect(await mongoUrlForTests()).toBe('mongodb://mongo.example:27017/?replicaSet=rs0');
  });

  it('without MONGO_URL, says which setting or engine would run the tests when no engine answers', async () => {
    delete process.env.MONGO_URL;
    if (isContainerEngineReachable()) {
      // An engine is there: starting a container is the business of the Mongo suites.
      expect(mongoForTestsAvailability()).toBe(true);
      return;
    }
    const skipped = { skipped: expect.stringMatching(/MONGO_URL.*Docker engine/) };
    expect(mongoForTestsAvailability()).toEqual(skipped);
    expect(await mongoUrlForTests()).toEqual(skipped);
  });
});
