import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { isContainerEngineReachable } from './container-engine';

export interface SkippedInfrastructure {
  skipped: string;
}

// The image compose runs, pinned the same (docker-compose.yml).
const mongoImage = 'mongo:7.0.37@sha256:340c1c56fb10e95cf79ff547f8664b96bc6ead9909bc355238cbf865a9695a6f';
const mongoPort = 27017;
const skipReason =
  'MongoDB suite skipped: set MONGO_URL (a replica set) or start a Docker engine to run it';

let started: Promise<StartedTestContainer> | undefined;

/** Whether `mongoUrlForTests()` will give a URL (decided synchronously, for jest). */
export function mongoForTestsAvailability(): true | SkippedInfrastructure {
  if (process.env.MONGO_URL) return true;
  return isContainerEngineReachable() ? true : { skipped: skipReason };
}

/**
 * A MongoDB replica set for tests: `MONGO_URL` if set (it must be a replica set, for
 * transactions); else a `mongo:7.0.37` container started here (once per test file, stopped by
 * `stopMongoForTests`); else the reason it cannot run.
 */
export async function mongoUrlForTests(): Promise<string | SkippedInfrastructure> {
  const fromEnv = process.env.MONGO_URL;
  if (fromEnv) return fromEnv;
  if (!isContainerEngineReachable()) return { skipped: skipReason };
  started ??= startMongoReplicaSet();
  const container = await started;
  // The replica set advertises the container's own host name: connect to this node directly.
  return `mongodb://${container.getHost()}:${container.getMappedPort(mongoPort)}/?directConnection=true`;
}

/** Stops the container `mongoUrlForTests` started, if it did. */
export async function stopMongoForTests(): Promise<void> {
  const container = started;
  started = undefined;
  if (container) await (await container).stop();
}

/**
 * A single-node replica set: `rs.initiate()` then wait until the node is primary. The health
 * check does both, so the container counts as started only once transactions work.
 */
function startMongoReplicaSet(): Promise<StartedTestContainer> {
  const initiateAndWaitForPrimary =
    'try { rs.status() } catch (e) { rs.initiate() } ' +
    'while (!db.runCommand({ hello: 1 }).isWritablePrimary) { sleep(100) }';
  return new GenericContainer(mongoImage)
    .withExposedPorts(mongoPort)
    .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
    .withHealthCheck({
      test: ['CMD', 'mongosh', '--quiet', '--eval', initiateAndWaitForPrimary],
      interval: 1000,
      timeout: 60_000,
      retries: 120,
      startPeriod: 1000,
    })
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000)
    .start();
}
