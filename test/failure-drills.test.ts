import { connect } from 'amqplib';
import { topologyFor } from '@formcast/bus';
import { serviceStarters } from '@formcast/embedded';
import { waitFor } from '@formcast/testing';
import { createOrganization, enrollDevice, type TestDevice, type TestOrganization } from './support/fixtures';
import { PrivateRabbitmq } from './support/private-rabbitmq';
import { createTemplate } from './support/push-fixtures';
import { distributedAmqpUrl, distributedModeEnabled, processNameOf, startDistributed, type DistributedSystem } from './support/start-distributed';
import { deliveriesOf, followUpsOf, startSubmissionDrill, webhooksReceived, type SubmissionDrill } from './support/submission-drill';
import { SubmissionStream, type SubmitOutcome } from './support/submission-stream';
import { useStartedSystem } from './support/use-system';

/**
 * Failure drills on the distributed topology (every service a process of its own): a
 * stream of pushes keeps going while a service process is killed and started again, or
 * while the broker restarts. Every request must be answered (202, or 503/504 while
 * something is down; never 500, never left hanging), every accepted oneshot must be listed
 * afterwards, and each device's badge must equal its outstanding oneshots. Likewise a
 * stream of submissions while the delivery process is killed or the broker restarts: every
 * submission must reach the receiver, and be chained to its device exactly once.
 */

const adminToken = 'drill-admin-token-0123456789abcdef';
/** The gateway's command timeout in the drills: a request to a stopped service answers 504 after it. */
const commandTimeoutMs = 2000;
/** A request unanswered after this long counts as hanging. */
const answerWithinMs = commandTimeoutMs + 8000;
const drillTimeoutMs = 120_000;
/**
 * Every process's settings in the drills: receivers are on 127.0.0.1, and a delivery attempt
 * times out as a command does, so a killed delivery process's leases end 7 s after their claim.
 */
const drillEnv = {
  COMMAND_TIMEOUT_MS: String(commandTimeoutMs),
  DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
  DELIVERY_TIMEOUT_MS: String(commandTimeoutMs),
};
/** Oneshots pushed, then submitted during a submission drill. */
const submissionsPerDrill = 500;
/** Time for every delivery to succeed once the submissions are in: a killed process's leases end, deferred dispatches come round. */
const deliveredWithinMs = 30_000;

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

/** A submission stream over the drill's oneshots, a little slower than the push stream so that a drill happens during it. */
const submissionStream = (drill: SubmissionDrill) => new SubmissionStream(drill.api.baseUrl, drill.oneshots, { answerWithinMs, paceMs: 40 });

/**
 * The submission drill's invariants, once the stream has finished: every oneshot was
 * submitted; both destinations delivered every submission; the receiver got each at least
 * once (the same webhook-id if more than once), and each device has one follow-up for each
 * of its submissions, no more: a dispatch sent again (a lease that ran out, a command whose
 * answer the broker lost, an event redelivered) was applied once.
 */
async function expectEverySubmissionDelivered(drill: SubmissionDrill, stream: SubmissionStream): Promise<void> {
  const tags = drill.oneshots.map((o) => o.tag);
  expect(tags.filter((tag) => !stream.submitted.has(tag))).toEqual([]);

  // Done when both delivery logs show every submission's delivery succeeded.
  let seen = '';
  const succeeded = async (name: string, destinationId: number) => {
    const deliveries = await deliveriesOf(drill, destinationId);
    const done = deliveries.filter((d) => d.status === 'succeeded').length;
    const others = deliveries.filter((d) => d.status !== 'succeeded').slice(0, 3);
    seen += `${name}: ${done} of ${deliveries.length} succeeded${others.length > 0 ? `, others such as ${JSON.stringify(others)}` : ''}; `;
    return deliveries.length === tags.length && done === tags.length ? deliveries : null;
  };
  const [webhook, dispatch] = await waitFor(
    async () => {
      seen = '';
      const logs = [await succeeded('webhook', drill.destinations.webhook), await succeeded('dispatch', drill.destinations.dispatch)];
      return logs[0] && logs[1] ? logs : null;
    },
    { timeoutMs: deliveredWithinMs, intervalMs: 500, description: 'every delivery to succeed' },
  ).catch((error: Error) => {
    throw new Error(`${error.message} (last seen: ${seen}the receiver had ${webhooksReceived(drill).length} requests)`);
  });

  // At least once: a webhook-id that came twice is the same delivery (a lease ran out).
  const received = webhooksReceived(drill);
  expect(tags.filter((tag) => !received.some((r) => r.note === tag))).toEqual([]);
  expect(new Set(received.map((r) => r.submissionId))).toEqual(new Set(webhook!.map((d) => d.submission_id)));
  expect(new Set(received.map((r) => r.webhookId))).toEqual(new Set(webhook!.map((d) => d.webhook_id)));
  expect(new Set(dispatch!.map((d) => d.submission_id))).toEqual(new Set(webhook!.map((d) => d.submission_id)));

  for (const device of drill.devices) {
    const followUps = await followUpsOf(drill, device);
    const submittedHere = drill.oneshots.filter((o) => o.device === device).map((o) => o.tag);
    expect(followUps.map((o) => o.payload['note']).sort()).toEqual(submittedHere.sort());
  }
}

/** Answers a submission may get during a drill: stored, or 503/504 while something is down (then sent again), 409 if that try had gone through. */
const unexpectedSubmitAnswers = (outcomes: SubmitOutcome[], allowed: SubmitOutcome['answer'][]) =>
  outcomes.filter((o) => !allowed.includes(o.answer)).map((o) => `${o.tag}: ${o.answer}`);

if (!distributedModeEnabled) console.warn('Failure drills skipped: E2E_DISTRIBUTED=0 leaves the distributed topology out');
const describeDistributed = distributedModeEnabled ? describe : describe.skip;
const brokerUnavailable = PrivateRabbitmq.unavailableReason();
if (distributedModeEnabled && brokerUnavailable) console.warn(`RabbitMQ restart drill skipped: it ${brokerUnavailable}`);
const describeWithPrivateBroker = brokerUnavailable ? describe.skip : describe;

/**
 * One system for every drill (each leaves every process running again, but the last), on a
 * RabbitMQ node of the file's own when the machine has one, so restarting it disturbs no
 * other suite running meanwhile; else on the shared broker, without the broker drills.
 */
describeDistributed('failure drills', () => {
  beforeAll(() => {
    expect(services).not.toContain('unknown');
  });
  let broker: PrivateRabbitmq | undefined;
  beforeAll(async () => {
    if (!brokerUnavailable) broker = await PrivateRabbitmq.start();
  }, drillTimeoutMs);
  const sys = useStartedSystem(
    () => startDistributed({ services, adminToken, env: drillEnv, ...(broker ? { amqpUrl: broker.url } : {}) }),
    { hookTimeoutMs: drillTimeoutMs },
  );
  // After the system has stopped (afterAll hooks run in the order they are declared), even when stopping failed.
  afterAll(() => broker?.destroy());

  describe('a service process dies during a stream of pushes', () => {
    // Push: the gateway answers 504 while it is down. Notifier: pushes go on being accepted and
    // their events wait in its queue; the badges catch up once it is back.
    it.each(withNotifier ? ['push', 'notifier'] : ['push'])(
      '%s killed (SIGKILL) and started again: every request answered, every accepted oneshot listed, badges right',
      async (name) => {
        const drill = await startDrill(sys.running);
        const target = sys.running.processes.get(name)!;

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

    it('delivery killed (SIGKILL) during 500 submissions and started again: every submission delivered, each chained once', async () => {
      const drill = await startSubmissionDrill(sys.api, sys.adminToken, submissionsPerDrill);
      try {
        const stream = submissionStream(drill);
        await waitFor(() => stream.acceptedSince() >= 100, { timeoutMs: 20_000, description: '100 submissions stored before the kill' });
        const delivery = sys.running.processes.get('delivery')!;

        const killedAt = Date.now();
        await delivery.signal('SIGKILL');
        expect(delivery.exits.at(-1)).toBe('SIGKILL');
        // Devices go on submitting: the submission events wait in delivery's queue.
        await waitFor(() => stream.acceptedSince(killedAt) >= 50, { timeoutMs: 20_000, description: '50 submissions stored while delivery is down' });
        await delivery.start();

        expect(unexpectedSubmitAnswers(await stream.finished(), [201])).toEqual([]);
        await expectEverySubmissionDelivered(drill, stream);
      } finally {
        await drill.receiver.close();
      }
    }, drillTimeoutMs);

    it('push stopped by SIGTERM (a rolling update): it finishes what it holds and exits 0; nothing is lost', async () => {
      const drill = await startDrill(sys.running);
      const push = sys.running.processes.get('push')!;

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

  describeWithPrivateBroker('RabbitMQ restarts during a stream of pushes', () => {
    it('the broker stops and starts again: every request answered (503 while it is down), every accepted oneshot listed, badges right', async () => {
      const drill = await startDrill(sys.running);

      const downAt = Date.now();
      await broker!.restart();
      const backAt = Date.now();
      // Every process reconnects by itself, re-declaring its queues and consumers.
      await waitFor(() => drill.stream.acceptedSince(backAt) >= 20, { timeoutMs: 60_000, description: '20 pushes accepted after the broker came back' });
      const outcomes = await drill.stream.stop();

      expect(drill.stream.answersSince(downAt, 503)).toBeGreaterThanOrEqual(1);
      for (const process of sys.running.processes.values()) expect({ name: process.name, running: process.running }).toEqual({ name: process.name, running: true });
      await expectNothingLost(drill, outcomes);
    }, drillTimeoutMs);

    it('the broker restarts during 500 submissions: every submission delivered, each chained once', async () => {
      const drill = await startSubmissionDrill(sys.api, sys.adminToken, submissionsPerDrill);
      try {
        const stream = submissionStream(drill);
        await waitFor(() => stream.acceptedSince() >= 100, { timeoutMs: 20_000, description: '100 submissions stored before the restart' });

        // Dispatches the bus cannot carry meanwhile are deferred, not pushed down the retry schedule.
        const downAt = Date.now();
        await broker!.restart();
        const outcomes = await stream.finished();

        expect(stream.answersSince(downAt, 503)).toBeGreaterThanOrEqual(1);
        expect(unexpectedSubmitAnswers(outcomes, [201, 503, 504, 409])).toEqual([]);
        for (const process of sys.running.processes.values()) expect({ name: process.name, running: process.running }).toEqual({ name: process.name, running: true });
        await expectEverySubmissionDelivered(drill, stream);
      } finally {
        await drill.receiver.close();
      }
    }, drillTimeoutMs);
  });

  // Last: it leaves the killed replica down.
  describe('two push replicas share its command queue', () => {
    beforeAll(async () => {
      await sys.running.startReplica('push');
    }, drillTimeoutMs);

    async function consumersOf(queue: string): Promise<number> {
      const connection = await connect(broker?.url ?? distributedAmqpUrl);
      try {
        return (await (await connection.createChannel()).checkQueue(queue)).consumerCount;
      } finally {
        await connection.close();
      }
    }

    it('one replica killed (SIGKILL): the other serves on at once, with the same store; nothing is lost, badges right', async () => {
      const drill = await startDrill(sys.running);
      expect(await consumersOf(topologyFor(sys.running.prefix).commandQueue('push'))).toBe(2);

      const killedAt = Date.now();
      await sys.running.processes.get('push-2')!.signal('SIGKILL');
      await waitFor(() => drill.stream.acceptedSince(killedAt) >= 30, { timeoutMs: 20_000, description: '30 pushes accepted after one replica died' });
      const outcomes = await drill.stream.stop();

      // What the dead replica held went back to the queue and the other replica answered it in time.
      expect(outcomes.filter((o) => o.answeredAt >= killedAt && o.answer !== 202).map((o) => `${o.tag}: ${o.answer}`)).toEqual([]);
      expect(await consumersOf(topologyFor(sys.running.prefix).commandQueue('push'))).toBe(1);
      await expectNothingLost(drill, outcomes);
    }, drillTimeoutMs);
  });
});
