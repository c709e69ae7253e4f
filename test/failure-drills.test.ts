import { connect } from 'amqplib';
import { topologyFor } from '@formcast/bus';
import { serviceStarters } from '@formcast/embedded';
import { waitFor } from '@formcast/testing';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { PrivateRabbitmq } from './support/private-rabbitmq';
import { createTemplate } from './support/push-fixtures';
import { distributedAmqpUrl, distributedModeEnabled, processNameOf, startDistributed, type DistributedSystem } from './support/start-distributed';

/**
 * Failure drills on the distributed topology (every service a process of its own): a
 * stream of pushes keeps going while a service process is killed and started again, or
 * while the broker restarts. Every request must be answered (202, or 503/504 while
 * something is down; never 500, never left hanging), every accepted oneshot must be listed
 * afterwards, and each device's badge must equal its outstanding oneshots.
 */

const adminToken = 'drill-admin-token-0123456789abcdef';
/** The gateway's command timeout in the drills: a request to a stopped service answers 504 after it. */
const commandTimeoutMs = 2000;
/** A request unanswered after this long counts as hanging. */
const answerWithinMs = commandTimeoutMs + 8000;
const drillTimeoutMs = 120_000;

const services = serviceStarters.map((start) => processNameOf(start) ?? 'unknown');
/** Badges are checked when the notifier is one of the services (it runs as a process of its own). */
const withNotifier = services.includes('notifier');

type Answer = number | 'no answer' | `failed: ${string}`;

interface PushOutcome {
  tag: string;
  device: TestDevice;
  answer: Answer;
  /** The id of the created oneshot, for 202. */
  id?: number;
  /** When it was answered (ms since the epoch). */
  answeredAt: number;
}

/** Pushes from a few concurrent clients until stopped, recording every outcome. */
class PushStream {
  readonly outcomes: PushOutcome[] = [];
  private running = true;
  private readonly workers: Promise<void>[];

  constructor(
    private readonly baseUrl: string,
    private readonly org: TestOrganization,
    private readonly devices: TestDevice[],
    private readonly namespace: string,
    concurrency = 3,
  ) {
    this.workers = Array.from({ length: concurrency }, (_, worker) => this.work(worker));
  }

  /** How many were accepted (202) after `since` (ms since the epoch). */
  acceptedSince(since = 0): number {
    return this.outcomes.filter((o) => o.answer === 202 && o.answeredAt >= since).length;
  }

  answersSince(since: number, answer: Answer): number {
    return this.outcomes.filter((o) => o.answer === answer && o.answeredAt >= since).length;
  }

  /** Stops sending; resolves with every outcome once the requests in flight are answered. */
  async stop(): Promise<PushOutcome[]> {
    this.running = false;
    await Promise.all(this.workers);
    return this.outcomes;
  }

  private async work(worker: number): Promise<void> {
    for (let n = 0; this.running; n += 1) {
      const device = this.devices[(worker + n) % this.devices.length]!;
      const started = Date.now();
      this.outcomes.push(await this.push(device, `drill-${worker}-${n}`));
      // Load shaping, not synchronisation: while the broker is down answers come at once, and
      // an unpaced client would send thousands of requests in a second.
      const rest = 20 - (Date.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  }

  private async push(device: TestDevice, tag: string): Promise<PushOutcome> {
    try {
      const res = await fetch(`${this.baseUrl}/clients/${device.identifier}/oneshots.json`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${this.org.token}:x`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ form_namespace: this.namespace, form_name: tag, payload: {} }),
        signal: AbortSignal.timeout(answerWithinMs),
      });
      const text = await res.text();
      const id = res.status === 202 ? (JSON.parse(text) as { oneshot_list: Array<{ id: number }> }).oneshot_list[0]!.id : undefined;
      return { tag, device, answer: res.status, id, answeredAt: Date.now() };
    } catch (error) {
      const answer: Answer = (error as Error).name === 'TimeoutError' ? 'no answer' : `failed: ${(error as Error).message}`;
      return { tag, device, answer, answeredAt: Date.now() };
    }
  }
}

interface Drill {
  system: DistributedSystem;
  org: TestOrganization;
  devices: TestDevice[];
  stream: PushStream;
}

async function startDrill(system: DistributedSystem): Promise<Drill> {
  const org = await createOrganization(system.api, system.adminToken);
  const template = await createTemplate(system.api, org, { type: 'root', title: 'Drill', children: [{ identifier: 'note', type: 'text' }] });
  const devices = [];
  for (let i = 0; i < 4; i += 1) devices.push(await enrollDevice(system.api, org));
  const stream = new PushStream(system.api.baseUrl, org, devices, template.namespace);
  await waitFor(() => stream.acceptedSince() >= 20, { timeoutMs: 20_000, description: '20 pushes accepted before the drill' });
  return { system, org, devices, stream };
}

/** The drill's invariants, once the stream has stopped. */
async function expectNothingLost({ system, org, devices }: Drill, outcomes: PushOutcome[]): Promise<void> {
  // Every request was answered: accepted, or 503/504 while something was down. Never 500, never hanging.
  const unexpected = outcomes.filter((o) => o.answer !== 202 && o.answer !== 503 && o.answer !== 504);
  expect(unexpected.map((o) => `${o.tag}: ${o.answer}`)).toEqual([]);

  const sentTags = new Map(outcomes.map((o) => [o.tag, o]));
  for (const device of devices) {
    const res = await system.api.get(`/clients/${device.identifier}/oneshots.json`, { token: org.token });
    expect(res.status).toBe(200);
    const listed = res.json<Array<{ id: number; name: string }>>();
    const listedIds = new Map(listed.map((o) => [o.id, o.name]));
    // Every accepted oneshot is there, under the name it was pushed with.
    const accepted = outcomes.filter((o) => o.device === device && o.answer === 202);
    expect(accepted.filter((o) => listedIds.get(o.id!) !== o.tag).map((o) => o.tag)).toEqual([]);
    // And nothing is there that this device was not sent (a 504 may still have been created).
    expect(listed.filter((o) => sentTags.get(o.name)?.device !== device).map((o) => o.name)).toEqual([]);
    // Each push once, even when its command was redelivered after a process died between
    // the write and the ack: the push service answers a repeated command id from the first.
    const names = listed.map((o) => o.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    if (withNotifier) {
      const badge = async () => (await system.api.get(`/clients/${device.identifier}/badge.json`, { token: org.token })).json<{ badge: number }>().badge;
      await waitFor(async () => (await badge()) === listed.length, { timeoutMs: 20_000, description: `${device.identifier}'s badge to reach ${listed.length}` });
      expect(await badge()).toBe(listed.length);
    }
  }
}

if (!distributedModeEnabled) console.warn('Failure drills skipped: E2E_DISTRIBUTED=0 leaves the distributed topology out');
const describeDistributed = distributedModeEnabled ? describe : describe.skip;

describeDistributed('failure drills: a service process dies during a stream of pushes', () => {
  let system: DistributedSystem;

  beforeAll(async () => {
    expect(services).not.toContain('unknown');
    system = await startDistributed({ services, adminToken, env: { COMMAND_TIMEOUT_MS: String(commandTimeoutMs) } });
  }, drillTimeoutMs);
  afterAll(() => system?.stop(), drillTimeoutMs);

  // Push: the gateway answers 504 while it is down. Notifier: pushes go on being accepted and
  // their events wait in its queue; the badges catch up once it is back.
  it.each(withNotifier ? ['push', 'notifier'] : ['push'])(
    '%s killed (SIGKILL) and started again: every request answered, every accepted oneshot listed, badges right',
    async (name) => {
      const drill = await startDrill(system);
      const target = system.processes.get(name)!;

      const killedAt = Date.now();
      await target.signal('SIGKILL');
      expect(target.exits.at(-1)).toBe('SIGKILL');
      if (name === 'push') {
        // Its queue holds the commands, nobody serves them: 504 after the command timeout.
        await waitFor(() => drill.stream.answersSince(killedAt, 504) >= 1, { timeoutMs: 20_000, description: 'a 504 while push is down' });
      } else {
        await waitFor(() => drill.stream.acceptedSince(killedAt) >= 20, { timeoutMs: 20_000, description: `20 pushes accepted while ${name} is down` });
      }

      await target.start();
      const restartedAt = Date.now();
      await waitFor(() => drill.stream.acceptedSince(restartedAt) >= 20, { timeoutMs: 30_000, description: '20 pushes accepted after the restart' });
      await expectNothingLost(drill, await drill.stream.stop());
    },
    drillTimeoutMs,
  );

  it('push stopped by SIGTERM (a rolling update): it finishes what it holds and exits 0; nothing is lost', async () => {
    const drill = await startDrill(system);
    const push = system.processes.get('push')!;

    const stoppedAt = Date.now();
    await push.signal('SIGTERM');
    expect(push.exits.at(-1)).toBe(0);
    await waitFor(() => drill.stream.answersSince(stoppedAt, 504) >= 1, { timeoutMs: 20_000, description: 'a 504 while push is down' });

    await push.start();
    const restartedAt = Date.now();
    await waitFor(() => drill.stream.acceptedSince(restartedAt) >= 20, { timeoutMs: 30_000, description: '20 pushes accepted after the restart' });
    await expectNothingLost(drill, await drill.stream.stop());
  }, drillTimeoutMs);
});

describeDistributed('failure drills: two push replicas share its command queue', () => {
  let system: DistributedSystem;

  beforeAll(async () => {
    system = await startDistributed({ services, adminToken, replicas: { push: 2 }, env: { COMMAND_TIMEOUT_MS: String(commandTimeoutMs) } });
  }, drillTimeoutMs);
  afterAll(() => system?.stop(), drillTimeoutMs);

  async function consumersOf(queue: string): Promise<number> {
    const connection = await connect(distributedAmqpUrl);
    try {
      return (await (await connection.createChannel()).checkQueue(queue)).consumerCount;
    } finally {
      await connection.close();
    }
  }

  it('one replica killed (SIGKILL): the other serves on at once, with the same store; nothing is lost, badges right', async () => {
    const drill = await startDrill(system);
    expect(await consumersOf(topologyFor(system.prefix).commandQueue('push'))).toBe(2);

    const killedAt = Date.now();
    await system.processes.get('push-2')!.signal('SIGKILL');
    await waitFor(() => drill.stream.acceptedSince(killedAt) >= 30, { timeoutMs: 20_000, description: '30 pushes accepted after one replica died' });
    const outcomes = await drill.stream.stop();

    // What the dead replica held went back to the queue and the other replica answered it in time.
    expect(outcomes.filter((o) => o.answeredAt >= killedAt && o.answer !== 202).map((o) => `${o.tag}: ${o.answer}`)).toEqual([]);
    expect(await consumersOf(topologyFor(system.prefix).commandQueue('push'))).toBe(1);
    await expectNothingLost(drill, outcomes);
  }, drillTimeoutMs);
});

const brokerUnavailable = PrivateRabbitmq.unavailableReason();
if (distributedModeEnabled && brokerUnavailable) console.warn(`RabbitMQ restart drill skipped: it ${brokerUnavailable}`);
const describeWithPrivateBroker = brokerUnavailable ? describe.skip : describeDistributed;

// On a broker of its own, so restarting it disturbs no other suite running meanwhile.
describeWithPrivateBroker('failure drills: RabbitMQ restarts during a stream of pushes', () => {
  let broker: PrivateRabbitmq | undefined;
  let system: DistributedSystem | undefined;

  beforeAll(async () => {
    broker = await PrivateRabbitmq.start();
    system = await startDistributed({ services, adminToken, amqpUrl: broker.url, env: { COMMAND_TIMEOUT_MS: String(commandTimeoutMs) } });
  }, drillTimeoutMs);
  afterAll(async () => {
    try {
      await system?.stop();
    } finally {
      broker?.destroy();
    }
  }, drillTimeoutMs);

  it('the broker stops and starts again: every request answered (503 while it is down), every accepted oneshot listed, badges right', async () => {
    const drill = await startDrill(system!);

    const downAt = Date.now();
    await broker!.restart();
    const backAt = Date.now();
    // Every process reconnects by itself, re-declaring its queues and consumers.
    await waitFor(() => drill.stream.acceptedSince(backAt) >= 20, { timeoutMs: 60_000, description: '20 pushes accepted after the broker came back' });
    const outcomes = await drill.stream.stop();

    expect(drill.stream.answersSince(downAt, 503)).toBeGreaterThanOrEqual(1);
    for (const process of system!.processes.values()) expect({ name: process.name, running: process.running }).toEqual({ name: process.name, running: true });
    await expectNothingLost(drill, outcomes);
  }, drillTimeoutMs);
});
