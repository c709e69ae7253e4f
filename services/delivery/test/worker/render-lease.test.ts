import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { InProcessBus } from '@formcast/bus';
import { directoryCommands } from '@formcast/contracts';
import { waitFor } from '@formcast/testing';
import { SmtpSink } from '../../../../test/support/smtp-sink';
import { newDelivery } from '../../src/domain/render-delivery';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { RenderPool, type RenderOutcome, type RenderTask } from '../../src/render/render-pool';
import { SecretCipher } from '../../src/secrets';
import { EmailSender } from '../../src/sender/email-sender';
import { HttpSender } from '../../src/sender/http-sender';
import { SqliteDeliveryStore } from '../../src/store';
import { attemptDelivery } from '../../src/worker/attempt-delivery';
import { DeliveryWorker } from '../../src/worker/delivery-worker';
import { submission } from '../domain/submission-fixture';

const logger = pino({ level: 'silent' });
const cipher = new SecretCipher(Buffer.alloc(32, 7));
const leaseMs = 1000;

/** A render pool whose every render first waits `delayMs`: a render far longer than the lease (a large submission, a busy pool). */
class SlowRenderPool extends RenderPool {
  constructor(private readonly delayMs: number) {
    super({ workers: 1, timeoutMs: 20_000, memoryMb: 128 });
  }

  override async render(task: RenderTask): Promise<RenderOutcome> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return super.render(task);
  }
}

describe('a render longer than the lease, two workers (two replicas) on one store', () => {
  let dir: string;
  let sink: SmtpSink;
  let bus: InProcessBus;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    sink = await SmtpSink.start();
    bus = new InProcessBus();
    bus.handleCommand('directory', directoryCommands.getForm, async () => ({ children: [] }));
    await bus.start();
  });
  afterAll(async () => {
    await bus.close();
    await sink.close();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'render-lease-'));
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** A replica: its own store connection, render pool and worker, the lease short and held (or not) while rendering. */
  function replica(file: string, holdLease: boolean): { store: SqliteDeliveryStore; worker: DeliveryWorker } {
    const store = new SqliteDeliveryStore(file, cipher);
    const render = new SlowRenderPool(3500);
    const http = new HttpSender({ timeoutMs: 2000, allowPrivateNetworks: true });
    const email = new EmailSender({ timeoutMs: 2000, defaultSmtpUrl: sink.url, allowPrivateNetworks: true });
    const attempt = attemptDelivery({ http, bus, commandTimeoutMs: 2000, now: Date.now, email: { store, render, email, mailFrom: 'forms@formcast.test' }, ...(holdLease ? { leaseMs } : {}) });
    const worker = new DeliveryWorker(store, attempt, { concurrency: 2, perDestination: 2, perOrganization: 4, leaseMs, pollMs: 20, logger });
    closers.push(async () => {
      await worker.stop();
      await render.close();
      await http.close();
      await store.close();
    });
    return { store, worker };
  }

  async function mailOnce(holdLease: boolean, to: string) {
    const file = join(dir, 'delivery.sqlite');
    const [one, two] = [replica(file, holdLease), replica(file, holdLease)];
    const destination = await one.store.destinations.createDestination(
      { orgId: 3, formId: 9, description: null, format: 'pdf_format', formatParameters: {}, transport: { type: 'email_transport', parameters: { to_addresses: to } }, secrets: newSigningSecrets() },
      randomUUID(),
    );
    await one.store.queue.createDeliveries([newDelivery(submission(), destination)], Date.now());
    one.worker.start();
    // The second replica starts once the first has claimed: it finds the delivery leased.
    await waitFor(async () => (await one.store.queue.inFlight(Date.now())).byDestination.get(destination.id) === 1, { description: 'the first claim', timeoutMs: 5000, intervalMs: 5 });
    two.worker.start();
    const [delivery] = await waitFor(
      async () => {
        const { deliveries } = await one.store.queue.listDeliveries(3, 9, destination.id, { offset: 0, limit: 1 });
        return deliveries[0]?.status === 'succeeded' && one.worker.busy === 0 && two.worker.busy === 0 ? deliveries : undefined;
      },
      { description: 'the delivery succeeded, both workers idle', timeoutMs: 30_000 },
    );
    // Time for a second send, had one been under way.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { mails: sink.received(to), attempts: delivery!.attempts };
  }

  it('holds the lease while rendering: the other worker never takes the delivery, one email goes', async () => {
    const { mails, attempts } = await mailOnce(true, 'held@example.test');
    expect(mails).toHaveLength(1);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ statusCode: 250 });
  });

  it('(why) without holding it, the delivery is taken again each time the lease runs out, and the office gets the email more than once', async () => {
    const { mails } = await mailOnce(false, 'unheld@example.test');
    expect(mails.length).toBeGreaterThan(1);
  });
});
