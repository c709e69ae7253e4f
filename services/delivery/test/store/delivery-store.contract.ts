import { randomUUID } from 'node:crypto';
import { isAppError } from '@formcast/platform';
import { attemptOutcome } from '../../src/domain/attempt-outcome';
import type { NewDelivery, NewDestination, SigningSecrets } from '../../src/domain/records';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { SecretCipher, SecretsKeyError } from '../../src/secrets';
import { attemptsKeptPerDelivery, type DeliveryStore, type NewAttempt } from '../../src/store';

/** What the contract suite needs of an adapter, beyond the port: its data as stored. */
export interface DeliveryStoreAdapter {
  /** A fresh, empty store sealing secrets with `cipher`. */
  make(cipher: SecretCipher): Promise<DeliveryStore>;
  /** A store over the data of the last one made (closed first by the suite), sealing with `cipher`. */
  reopen(cipher: SecretCipher): Promise<DeliveryStore>;
  /** Everything the data holds of a destination (its row, its document), raw, as text. */
  rawDestination(destinationId: number): Promise<string>;
  /** Writes a destination's secrets in clear, as releases before sealing did. */
  writeInClear(destinationId: number, secrets: SigningSecrets): Promise<void>;
}

export const testKey = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 9);

/**
 * The behaviour every DeliveryStore adapter must have: one suite, run against each adapter
 * (see the port's doc comment in src/store/delivery-store.ts for the rules checked here).
 * `adapter.make` gives a fresh, empty store for each test; the suite closes it afterwards.
 */
export function describeDeliveryStoreContract(name: string, adapter: DeliveryStoreAdapter): void {
  describe(name, () => {
    let store: DeliveryStore;

    beforeEach(async () => {
      store = await adapter.make(new SecretCipher(testKey));
    });

    async function reopen(cipher: SecretCipher): Promise<DeliveryStore> {
      await store.close();
      store = await adapter.reopen(cipher);
      return store;
    }

    afterEach(async () => {
      await store.close();
    });

    // Fixtures ---------------------------------------------------------------------------

    const orgId = 11;
    const otherOrgId = 12;
    const formId = 21;
    const otherFormId = 22;
    const t0 = Date.parse('2026-05-04T10:00:00.000Z');
    const lease = 60_000;

    function destinationInput(extra: Partial<NewDestination> = {}): NewDestination {
      return {
        orgId,
        formId,
        description: 'CRM',
        format: 'json_format',
        formatParameters: {},
        transport: { type: 'http_transport', parameters: { uri: 'https://crm.example.com/hook', headers: { 'X-Key.$v': 'k' } } },
        secrets: newSigningSecrets(),
        ...extra,
      };
    }

    const createDestination = (extra: Partial<NewDestination> = {}) => store.destinations.createDestination(destinationInput(extra), randomUUID());

    function delivery(destinationId: number, submissionId: number, extra: Partial<NewDelivery> = {}): NewDelivery {
      return {
        orgId,
        formId,
        destinationId,
        submissionId,
        webhookId: `msg_${destinationId}_${submissionId}`,
        contentType: 'application/json',
        body: `{"submission":${submissionId}}`,
        ...extra,
      };
    }

    function attempt(at: number, extra: Partial<NewAttempt> = {}): NewAttempt {
      return { attemptedAt: new Date(at).toISOString(), statusCode: 500, durationMs: 12, responseBody: 'oops', error: null, ...extra };
    }

    async function expectNotFound(promise: Promise<unknown>): Promise<void> {
      const error = await promise.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isAppError(error) && error.code).toBe('not_found');
    }

    /** Claims everything due at `now`, as one worker would. */
    async function claimDue(now: number, perDestination = 100) {
      const due = await store.queue.dueDeliveries(now, perDestination, 1000);
      return store.queue.claim(
        due.map((candidate) => candidate.id),
        now,
        now + lease,
      );
    }

    // Destinations -------------------------------------------------------------------------

    it('creates destinations of a form with their secrets, listed and shown only within their organization and form', async () => {
      const first = await createDestination();
      const second = await createDestination({ description: null, format: 'xml_format' });
      await createDestination({ formId: otherFormId });
      await createDestination({ orgId: otherOrgId });
      expect(first).toMatchObject({
        orgId,
        formId,
        description: 'CRM',
        active: true,
        format: 'json_format',
        formatParameters: {},
        transport: { type: 'http_transport', parameters: { uri: 'https://crm.example.com/hook', headers: { 'X-Key.$v': 'k' } } },
        deactivatedReason: null,
        deactivatedAt: null,
        failingSince: null,
      });
      expect(first.secrets.current).toMatch(/^whsec_/);
      expect(Date.parse(first.createdAt)).not.toBeNaN();
      expect((await store.destinations.listDestinations(orgId, formId)).map((d) => d.id)).toEqual([first.id, second.id]);
      expect(await store.destinations.getDestination(orgId, formId, first.id)).toEqual(first);
      expect(await store.destinations.getDestination(otherOrgId, formId, first.id)).toBeNull();
      expect(await store.destinations.getDestination(orgId, otherFormId, first.id)).toBeNull();
    });

    it('creates once per command id', async () => {
      const commandId = randomUUID();
      const first = await store.destinations.createDestination(destinationInput(), commandId);
      const again = await store.destinations.createDestination(destinationInput(), commandId);
      expect(again).toEqual(first);
      expect(await store.destinations.listDestinations(orgId, formId)).toHaveLength(1);
    });

    it('updates the description and the transport parameters', async () => {
      const created = await createDestination();
      const updated = await store.destinations.updateDestination(orgId, formId, created.id, {
        description: null,
        transport: { type: 'http_transport', parameters: { uri: 'https://crm.example.com/v2' } },
      });
      expect(updated).toMatchObject({ description: null, transport: { parameters: { uri: 'https://crm.example.com/v2' } }, active: true });
      expect(updated.secrets).toEqual(created.secrets);
      expect(await store.destinations.getDestination(orgId, formId, created.id)).toEqual(updated);
      await expectNotFound(store.destinations.updateDestination(otherOrgId, formId, created.id, { description: 'x' }));
    });

    it('rotates the secret, the old one retired for the overlap, once per command id', async () => {
      const created = await createDestination();
      const commandId = randomUUID();
      const before = Date.now();
      const rotated = await store.destinations.rotateSecret(orgId, formId, created.id, 3_600_000, commandId);
      expect(rotated.secrets.current).not.toBe(created.secrets.current);
      expect(rotated.secrets.retired).toHaveLength(1);
      expect(rotated.secrets.retired[0]!.secret).toBe(created.secrets.current);
      const expiresAt = Date.parse(rotated.secrets.retired[0]!.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
      expect(await store.destinations.rotateSecret(orgId, formId, created.id, 3_600_000, commandId)).toEqual(rotated);
      expect((await store.destinations.getDestination(orgId, formId, created.id))!.secrets).toEqual(rotated.secrets);
      await expectNotFound(store.destinations.rotateSecret(otherOrgId, formId, created.id, 0, randomUUID()));
    });

    it('deletes a destination with its deliveries', async () => {
      const created = await createDestination();
      const kept = await createDestination();
      await store.queue.createDeliveries([delivery(created.id, 1), delivery(kept.id, 1)], t0);
      await expectNotFound(store.destinations.deleteDestination(otherOrgId, formId, created.id));
      await store.destinations.deleteDestination(orgId, formId, created.id);
      expect(await store.destinations.getDestination(orgId, formId, created.id)).toBeNull();
      await expectNotFound(store.destinations.deleteDestination(orgId, formId, created.id));
      expect((await claimDue(t0)).map((claim) => claim.destination.id)).toEqual([kept.id]);
    });

    it('deletes a destination whose log is longer than one batch, and nothing of another', async () => {
      const created = await createDestination();
      const kept = await createDestination();
      const many = Array.from({ length: 1001 }, (_, i) => delivery(created.id, i + 1));
      expect(await store.queue.createDeliveries([...many, delivery(kept.id, 1)], t0)).toBe(1002);
      await store.destinations.deleteDestination(orgId, formId, created.id);
      expect(await store.destinations.getDestination(orgId, formId, created.id)).toBeNull();
      expect((await claimDue(t0)).map((claim) => claim.destination.id)).toEqual([kept.id]);
      expect((await store.queue.listDeliveries(orgId, formId, kept.id, { offset: 0, limit: 10 })).total).toBe(1);
    });

    // Deliveries ---------------------------------------------------------------------------

    it('makes one delivery per destination and submission, however often asked', async () => {
      const destination = await createDestination();
      expect(await store.queue.createDeliveries([delivery(destination.id, 1), delivery(destination.id, 2)], t0)).toBe(2);
      expect(await store.queue.createDeliveries([delivery(destination.id, 1, { webhookId: 'msg_other' })], t0 + 1000)).toBe(0);
      const { total, deliveries } = await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 });
      expect(total).toBe(2);
      expect(deliveries.map((d) => [d.submissionId, d.webhookId])).toEqual([
        [2, `msg_${destination.id}_2`],
        [1, `msg_${destination.id}_1`],
      ]);
      expect(deliveries[0]).toMatchObject({
        status: 'pending',
        scheduleStep: 0,
        nextAttemptAt: t0,
        contentType: 'application/json',
        body: '{"submission":2}',
        attempts: [],
      });
    });

    it('gives each due delivery to one claimer until its lease ends', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      expect(await store.queue.dueDeliveries(t0 - 1, 10, 10)).toEqual([]);
      const [claim] = await claimDue(t0);
      expect(claim).toMatchObject({ delivery: { submissionId: 1, status: 'pending' }, destination: { id: destination.id } });
      expect(claim!.destination.secrets).toEqual(destination.secrets);
      expect(await claimDue(t0 + 1)).toEqual([]);
      expect(await store.queue.claim([claim!.delivery.id], t0 + 1, t0 + lease)).toEqual([]);
      const inFlight = await store.queue.inFlight(t0 + 1);
      expect(inFlight.byDestination.get(destination.id)).toBe(1);
      expect(inFlight.byOrganization.get(orgId)).toBe(1);
      // The claimer died: after the lease, another takes it.
      const [again] = await claimDue(t0 + lease);
      expect(again!.delivery.id).toBe(claim!.delivery.id);
      expect(again!.claimToken).not.toBe(claim!.claimToken);
      expect((await store.queue.inFlight(t0 + 2 * lease)).byDestination.size).toBe(0);
    });

    it('lists due deliveries oldest first, at most so many of each destination', async () => {
      const busy = await createDestination();
      const quiet = await createDestination();
      await store.queue.createDeliveries([delivery(busy.id, 1), delivery(busy.id, 2)], t0);
      await store.queue.createDeliveries([delivery(busy.id, 3)], t0 + 1);
      await store.queue.createDeliveries([delivery(quiet.id, 4)], t0 + 2);
      const due = await store.queue.dueDeliveries(t0 + 10, 2, 10);
      expect(due.map((candidate) => candidate.destinationId)).toEqual([busy.id, busy.id, quiet.id]);
      expect(due[0]).toMatchObject({ orgId, destinationId: busy.id });
      expect(await store.queue.dueDeliveries(t0 + 10, 2, 1)).toHaveLength(1);
    });

    it("lists another destination's due delivery when one destination has more due than the limit", async () => {
      const busy = await createDestination();
      const quiet = await createDestination();
      await store.queue.createDeliveries(Array.from({ length: 6 }, (_, i) => delivery(busy.id, i + 1)), t0);
      await store.queue.createDeliveries([delivery(quiet.id, 7)], t0 + 1);
      const due = await store.queue.dueDeliveries(t0 + 10, 2, 4);
      expect(due.map((candidate) => candidate.destinationId)).toEqual([busy.id, busy.id, quiet.id]);
    });

    it('records an attempt and schedules the next', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [claim] = await claimDue(t0);
      const outcome = attemptOutcome({ kind: 'failed' }, 1, t0 + 100, 0.5);
      await store.queue.recordAttempt({ deliveryId: claim!.delivery.id, claimToken: claim!.claimToken }, attempt(t0 + 100), outcome);
      const [logged] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries;
      expect(logged).toMatchObject({ status: 'pending', scheduleStep: 1, nextAttemptAt: t0 + 5100 });
      expect(logged!.attempts).toEqual([
        { deliveryId: claim!.delivery.id, attemptedAt: new Date(t0 + 100).toISOString(), statusCode: 500, durationMs: 12, responseBody: 'oops', error: null },
      ]);
      expect((await store.destinations.getDestination(orgId, formId, destination.id))!.failingSince).toBe(new Date(t0 + 100).toISOString());
      expect(await claimDue(t0 + 5099)).toEqual([]);
      const [next] = await claimDue(t0 + 5100);
      await store.queue.recordAttempt(
        { deliveryId: next!.delivery.id, claimToken: next!.claimToken },
        attempt(t0 + 5200, { statusCode: 204, responseBody: null }),
        attemptOutcome({ kind: 'delivered' }, 2, t0 + 5200),
      );
      const [done] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries;
      expect(done).toMatchObject({ status: 'succeeded', nextAttemptAt: null, scheduleStep: 2 });
      expect(done!.attempts.map((a) => a.statusCode)).toEqual([500, 204]);
      expect((await store.destinations.getDestination(orgId, formId, destination.id))!.failingSince).toBeNull();
      expect(await claimDue(t0 + 10 * 3_600_000)).toEqual([]);
    });

    it('records a deferred attempt without using up a step of the schedule, or touching the destination', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [claim] = await claimDue(t0);
      await store.queue.recordAttempt(
        { deliveryId: claim!.delivery.id, claimToken: claim!.claimToken },
        attempt(t0 + 100, { statusCode: null, responseBody: null, error: 'unavailable: Not connected to the broker' }),
        attemptOutcome({ kind: 'deferred' }, 1, t0 + 100, 0.5),
      );
      const [logged] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries;
      expect(logged).toMatchObject({ status: 'pending', scheduleStep: 0, nextAttemptAt: t0 + 5100 });
      expect(logged!.attempts.map((a) => a.error)).toEqual(['unavailable: Not connected to the broker']);
      expect((await store.destinations.getDestination(orgId, formId, destination.id))!.failingSince).toBeNull();
    });

    it('keeps the attempt but not the outcome of a claim that lost its lease', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [stale] = await claimDue(t0);
      const [current] = await claimDue(t0 + lease);
      await store.queue.recordAttempt(
        { deliveryId: stale!.delivery.id, claimToken: stale!.claimToken },
        attempt(t0 + lease + 1, { statusCode: 200 }),
        attemptOutcome({ kind: 'delivered' }, 1, t0 + lease + 1),
      );
      let [logged] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 1 })).deliveries;
      expect(logged).toMatchObject({ status: 'pending', scheduleStep: 0 });
      expect(logged!.attempts).toHaveLength(1);
      await store.queue.recordAttempt(
        { deliveryId: current!.delivery.id, claimToken: current!.claimToken },
        attempt(t0 + lease + 2, { statusCode: 200 }),
        attemptOutcome({ kind: 'delivered' }, 1, t0 + lease + 2),
      );
      [logged] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 1 })).deliveries;
      expect(logged).toMatchObject({ status: 'succeeded', scheduleStep: 1 });
    });

    it("hands the freed slot the oldest due delivery when it is of the same destination, leased, in the attempt's record", async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [first] = await store.queue.claim([(await store.queue.dueDeliveries(t0, 8, 10))[0]!.id], t0, t0 + lease);
      await store.queue.createDeliveries([delivery(destination.id, 2)], t0 + 1);
      await store.queue.createDeliveries([delivery(destination.id, 3)], t0 + 2);
      const next = await store.queue.recordAttempt(
        { deliveryId: first!.delivery.id, claimToken: first!.claimToken },
        attempt(t0 + 10, { statusCode: 200 }),
        attemptOutcome({ kind: 'delivered' }, 1, t0 + 10),
        { now: () => t0 + 10, leaseMs: lease },
      );
      expect(next).toMatchObject({ delivery: { submissionId: 2, destinationId: destination.id }, destination: { id: destination.id, secrets: destination.secrets } });
      expect(next!.claimToken).not.toBe(first!.claimToken);
      // Leased: not due for another worker, counted in flight; the rest still due.
      expect((await store.queue.dueDeliveries(t0 + 20, 8, 10)).map((candidate) => candidate.id)).toEqual([next!.delivery.id + 1]);
      expect((await store.queue.inFlight(t0 + 20)).byDestination.get(destination.id)).toBe(1);
      expect(await store.queue.holdLease({ deliveryId: next!.delivery.id, claimToken: next!.claimToken }, t0 + lease)).toBe(true);
      // Without a hand-off asked, none.
      expect(
        await store.queue.recordAttempt(
          { deliveryId: next!.delivery.id, claimToken: next!.claimToken },
          attempt(t0 + 30, { statusCode: 200 }),
          attemptOutcome({ kind: 'delivered' }, 1, t0 + 30),
        ),
      ).toBeNull();
      expect(await store.queue.dueDeliveries(t0 + 40, 8, 10)).toHaveLength(1);
    });

    it('hands over what is due when the record is written, not when it was asked for', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [first] = await claimDue(t0);
      await store.queue.createDeliveries([delivery(destination.id, 2)], t0 + 15);
      let clock = t0 + 10;
      const recorded = store.queue.recordAttempt(
        { deliveryId: first!.delivery.id, claimToken: first!.claimToken },
        attempt(t0 + 10, { statusCode: 200 }),
        attemptOutcome({ kind: 'delivered' }, 1, t0 + 10),
        { now: () => clock, leaseMs: lease },
      );
      clock = t0 + 20;
      expect((await recorded)?.delivery.submissionId).toBe(2);
      // Leased from then.
      expect(await claimDue(t0 + 19 + lease)).toEqual([]);
      expect(await claimDue(t0 + 20 + lease)).toHaveLength(1);
    });

    it("hands nothing over when the oldest due delivery is another destination's, none is due, or the claim was lost", async () => {
      const mine = await createDestination();
      const other = await createDestination();
      await store.queue.createDeliveries([delivery(mine.id, 1)], t0);
      const [first] = await claimDue(t0);
      await store.queue.createDeliveries([delivery(other.id, 2)], t0 + 1);
      await store.queue.createDeliveries([delivery(mine.id, 3)], t0 + 2);
      const handOff = { now: () => t0 + 10, leaseMs: lease };
      // The other destination's is older: left to the worker's fair pass.
      expect(
        await store.queue.recordAttempt({ deliveryId: first!.delivery.id, claimToken: first!.claimToken }, attempt(t0 + 10), attemptOutcome({ kind: 'delivered' }, 1, t0 + 10), handOff),
      ).toBeNull();
      expect((await store.queue.dueDeliveries(t0 + 10, 8, 10)).map((candidate) => candidate.destinationId)).toEqual([other.id, mine.id]);
      // Not yet due (a retry later on): none.
      const [otherClaim, mineClaim] = await claimDue(t0 + 10);
      expect(
        await store.queue.recordAttempt({ deliveryId: mineClaim!.delivery.id, claimToken: mineClaim!.claimToken }, attempt(t0 + 11), attemptOutcome({ kind: 'delivered' }, 1, t0 + 11), { now: () => t0 + 11, leaseMs: lease }),
      ).toBeNull();
      // A claim that lost its lease frees no slot: nothing handed over, though one of its destination is due.
      await store.queue.createDeliveries([delivery(other.id, 4)], t0 + 12);
      const stale = otherClaim!;
      const [retaken] = await store.queue.claim([stale.delivery.id], t0 + 10 + lease, t0 + 10 + 2 * lease);
      expect(retaken).toBeDefined();
      expect(
        await store.queue.recordAttempt({ deliveryId: stale.delivery.id, claimToken: stale.claimToken }, attempt(t0 + 10 + lease), attemptOutcome({ kind: 'delivered' }, 1, t0 + 10 + lease), {
          now: () => t0 + 10 + lease,
          leaseMs: lease,
        }),
      ).toBeNull();
      expect((await store.queue.dueDeliveries(t0 + 10 + lease, 8, 10)).map((candidate) => candidate.destinationId)).toEqual([other.id]);
    });

    it('hands nothing over to a destination turned off', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1), delivery(destination.id, 2)], t0);
      const [first] = await store.queue.claim([(await store.queue.dueDeliveries(t0, 8, 10))[0]!.id], t0, t0 + lease);
      await store.destinations.updateDestination(orgId, formId, destination.id, { active: false });
      expect(
        await store.queue.recordAttempt({ deliveryId: first!.delivery.id, claimToken: first!.claimToken }, attempt(t0 + 10), attemptOutcome({ kind: 'delivered' }, 1, t0 + 10), { now: () => t0 + 10, leaseMs: lease }),
      ).toBeNull();
    });

    it("extends a claim's lease while the claim is the delivery's, and says when it is not", async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [held] = await claimDue(t0);
      const claim = { deliveryId: held!.delivery.id, claimToken: held!.claimToken };
      expect(await store.queue.holdLease(claim, t0 + 3 * lease)).toBe(true);
      // Past the first lease, still held: nobody else takes it.
      expect(await claimDue(t0 + 2 * lease)).toEqual([]);
      // Never shortened.
      expect(await store.queue.holdLease(claim, t0 + lease)).toBe(true);
      expect(await claimDue(t0 + 2 * lease)).toEqual([]);
      // Once it ran out and another claimed it, the first claimer's is gone for good.
      const [taken] = await claimDue(t0 + 3 * lease);
      expect(taken!.claimToken).not.toBe(held!.claimToken);
      expect(await store.queue.holdLease(claim, t0 + 5 * lease)).toBe(false);
      expect(await store.queue.holdLease({ deliveryId: taken!.delivery.id, claimToken: taken!.claimToken }, t0 + 5 * lease)).toBe(true);
      // Ended (its attempt recorded): no lease to hold.
      await store.queue.recordAttempt({ deliveryId: taken!.delivery.id, claimToken: taken!.claimToken }, attempt(t0 + 3 * lease, { statusCode: 200 }), attemptOutcome({ kind: 'delivered' }, 1, t0 + 3 * lease));
      expect(await store.queue.holdLease({ deliveryId: taken!.delivery.id, claimToken: taken!.claimToken }, t0 + 6 * lease)).toBe(false);
    });

    it("keeps an organization's bounce list: any case, dated anew when refused again, its own only", async () => {
      await store.bounces.recordBounces(orgId, ['Gone@Example.test', 'gone@example.test'], '550 No such user', new Date(t0).toISOString());
      expect(await store.bounces.bouncedAmong(orgId, ['GONE@example.test', 'here@example.test'], new Date(t0 - 1).toISOString())).toEqual(['GONE@example.test']);
      // Older than the window asked: off the list.
      expect(await store.bounces.bouncedAmong(orgId, ['gone@example.test'], new Date(t0 + 1).toISOString())).toEqual([]);
      await store.bounces.recordBounces(orgId, ['gone@example.test'], '550 again', new Date(t0 + 10).toISOString());
      expect(await store.bounces.bouncedAmong(orgId, ['gone@example.test'], new Date(t0 + 1).toISOString())).toEqual(['gone@example.test']);
      expect(await store.bounces.bouncedAmong(orgId + 1, ['gone@example.test'], new Date(t0 - 1).toISOString())).toEqual([]);
      expect(await store.bounces.bouncedAmong(orgId, [], new Date(t0 - 1).toISOString())).toEqual([]);
    });

    it('keeps the newest attempts of a delivery', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const total = attemptsKeptPerDelivery + 3;
      for (let i = 0; i < total; i++) {
        const now = t0 + i * lease;
        const [claim] = await claimDue(now);
        await store.queue.recordAttempt(
          { deliveryId: claim!.delivery.id, claimToken: claim!.claimToken },
          attempt(now, { durationMs: i }),
          { status: 'pending', nextAttemptAt: now + 1, health: { kind: 'failing', at: new Date(now).toISOString() } },
        );
      }
      const [logged] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 1 })).deliveries;
      expect(logged!.attempts.map((a) => a.durationMs)).toEqual(Array.from({ length: attemptsKeptPerDelivery }, (_, i) => i + 3));
    });

    it('reads the active destinations of a form with what a delivery is made of: no secrets, a transport\'s parameters only for a dispatch', async () => {
      const http = await createDestination();
      const dispatch = await createDestination({
        format: 'xml_format',
        transport: { type: 'dispatch_transport', parameters: { form_namespace: 'http://example.com/xforms/follow-up', field_map: { client: 'customer' } } },
      });
      const email = await createDestination({
        format: 'pdf_format',
        transport: { type: 'email_transport', parameters: { to_addresses: 'office@example.com', via_custom_smtp: true, smtp_address: 'mail.example.com', password: 'hunter2' } },
      });
      await createDestination({ formId: otherFormId });
      const off = await createDestination();
      await store.destinations.updateDestination(orgId, formId, off.id, { active: false });
      expect(await store.destinations.activeDestinations(orgId, formId)).toEqual([
        { id: http.id, orgId, formId, format: 'json_format', transport: { type: 'http_transport' } },
        {
          id: dispatch.id,
          orgId,
          formId,
          format: 'xml_format',
          transport: { type: 'dispatch_transport', parameters: { form_namespace: 'http://example.com/xforms/follow-up', field_map: { client: 'customer' } } },
        },
        { id: email.id, orgId, formId, format: 'pdf_format', transport: { type: 'email_transport' } },
      ]);
    });

    it('reads each change of a form\'s destinations at once, though it read them before (issue 24 keeps them)', async () => {
      const active = async () => (await store.destinations.activeDestinations(orgId, formId)).map((d) => d.id);
      expect(await active()).toEqual([]);
      const first = await createDestination();
      expect(await active()).toEqual([first.id]);
      const second = await createDestination({
        transport: { type: 'dispatch_transport', parameters: { form_namespace: 'http://example.com/xforms/a', field_map: {} } },
      });
      expect(await active()).toEqual([first.id, second.id]);
      await store.destinations.updateDestination(orgId, formId, second.id, {
        transport: { type: 'dispatch_transport', parameters: { form_namespace: 'http://example.com/xforms/b', field_map: {} } },
      });
      expect((await store.destinations.activeDestinations(orgId, formId))[1]!.transport).toEqual({
        type: 'dispatch_transport',
        parameters: { form_namespace: 'http://example.com/xforms/b', field_map: {} },
      });
      await store.destinations.updateDestination(orgId, formId, first.id, { active: false });
      expect(await active()).toEqual([second.id]);
      await store.destinations.updateDestination(orgId, formId, first.id, { active: true });
      expect(await active()).toEqual([first.id, second.id]);
      // Deactivated by its receiver's 410, inside an attempt's record.
      await store.queue.createDeliveries([delivery(first.id, 1)], t0);
      const [claim] = await claimDue(t0);
      await store.queue.recordAttempt({ deliveryId: claim!.delivery.id, claimToken: claim!.claimToken }, attempt(t0 + 10, { statusCode: 410 }), attemptOutcome({ kind: 'gone' }, 1, t0 + 10));
      expect(await active()).toEqual([second.id]);
      await store.destinations.deleteDestination(orgId, formId, second.id);
      expect(await active()).toEqual([]);
      const third = await createDestination();
      expect(await active()).toEqual([third.id]);
      await store.destinations.deleteFormDestinations(orgId, formId);
      expect(await active()).toEqual([]);
    });

    it('deactivates a destination on 410, holding its pending deliveries until it is active again', async () => {
      const destination = await createDestination();
      const other = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1), delivery(destination.id, 2), delivery(other.id, 1)], t0);
      const claims = await claimDue(t0);
      const gone = claims.find((claim) => claim.delivery.destinationId === destination.id && claim.delivery.submissionId === 1)!;
      await store.queue.recordAttempt(
        { deliveryId: gone.delivery.id, claimToken: gone.claimToken },
        attempt(t0 + 10, { statusCode: 410 }),
        attemptOutcome({ kind: 'gone' }, 1, t0 + 10),
      );
      const deactivated = await store.destinations.getDestination(orgId, formId, destination.id);
      expect(deactivated).toMatchObject({ active: false, deactivatedReason: 'gone', deactivatedAt: new Date(t0 + 10).toISOString() });
      expect((await store.destinations.activeDestinations(orgId, formId)).map((d) => d.id)).toEqual([other.id]);
      // Its other delivery, leased before, finishes with a failure: it is not due again.
      const waiting = claims.find((claim) => claim.delivery.destinationId === destination.id && claim.delivery.submissionId === 2)!;
      await store.queue.recordAttempt(
        { deliveryId: waiting.delivery.id, claimToken: waiting.claimToken },
        attempt(t0 + 20),
        attemptOutcome({ kind: 'failed' }, 1, t0 + 20, 0.5),
      );
      const later = await claimDue(t0 + 3_600_000);
      expect(later.map((claim) => claim.delivery.destinationId)).toEqual([other.id]);
      const log = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries;
      expect(log.map((d) => [d.submissionId, d.status])).toEqual([
        [2, 'pending'],
        [1, 'failed'],
      ]);

      const reactivated = await store.destinations.updateDestination(orgId, formId, destination.id, { active: true });
      expect(reactivated).toMatchObject({ active: true, deactivatedReason: null, deactivatedAt: null, failingSince: null });
      const resumed = await claimDue(Date.now() + 1);
      const resumedHere = resumed.filter((claim) => claim.delivery.destinationId === destination.id);
      expect(resumedHere.map((claim) => claim.delivery.submissionId)).toEqual([2]);
    });

    it('holds the deliveries of a destination turned off by hand', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const off = await store.destinations.updateDestination(orgId, formId, destination.id, { active: false });
      expect(off).toMatchObject({ active: false, deactivatedReason: null });
      expect(off.deactivatedAt).not.toBeNull();
      expect(await claimDue(Date.now() + 1)).toEqual([]);
      await store.destinations.updateDestination(orgId, formId, destination.id, { active: true });
      expect(await claimDue(Date.now() + 1)).toHaveLength(1);
    });

    it('shows the pending deliveries of a destination turned off without a due time, and due again once it is on', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1), delivery(destination.id, 2)], t0);
      await store.destinations.updateDestination(orgId, formId, destination.id, { active: false });
      const held = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries;
      expect(held.map((d) => [d.status, d.nextAttemptAt])).toEqual([
        ['pending', null],
        ['pending', null],
      ]);
      expect(await claimDue(Date.now() + 1)).toEqual([]);
      await store.destinations.updateDestination(orgId, formId, destination.id, { active: true });
      expect((await claimDue(Date.now() + 1)).map((claim) => claim.delivery.submissionId).sort()).toEqual([1, 2]);
    });

    it('deactivates a destination whose delivery fails for good after it failed for five days, not before', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1), delivery(destination.id, 2)], t0);
      const day = 24 * 3_600_000;
      const [first, second] = await claimDue(t0);
      await store.queue.recordAttempt({ deliveryId: first!.delivery.id, claimToken: first!.claimToken }, attempt(t0), attemptOutcome({ kind: 'failed' }, 1, t0));
      // Failing for a day when this one runs out of attempts: still active.
      await store.queue.recordAttempt(
        { deliveryId: second!.delivery.id, claimToken: second!.claimToken },
        attempt(t0 + day),
        attemptOutcome({ kind: 'failed' }, 8, t0 + day),
      );
      expect(await store.destinations.getDestination(orgId, formId, destination.id)).toMatchObject({ active: true, failingSince: new Date(t0).toISOString() });
      // Five days on, another one runs out: deactivated.
      const [third] = await claimDue(t0 + 5 * day);
      await store.queue.recordAttempt(
        { deliveryId: third!.delivery.id, claimToken: third!.claimToken },
        attempt(t0 + 5 * day),
        attemptOutcome({ kind: 'failed' }, 8, t0 + 5 * day),
      );
      expect(await store.destinations.getDestination(orgId, formId, destination.id)).toMatchObject({
        active: false,
        deactivatedReason: 'failing',
        deactivatedAt: new Date(t0 + 5 * day).toISOString(),
      });
    });

    it('lists a destination\'s deliveries newest first, a page at a time', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([1, 2, 3, 4, 5].map((n) => delivery(destination.id, n)), t0);
      const page = await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 2, limit: 2 });
      expect(page.total).toBe(5);
      expect(page.deliveries.map((d) => d.submissionId)).toEqual([3, 2]);
      await expectNotFound(store.queue.listDeliveries(otherOrgId, formId, destination.id, { offset: 0, limit: 2 }));
    });

    it('redelivers a finished delivery from the start of its schedule, with the same webhook id and body', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      const [claim] = await claimDue(t0);
      await store.queue.recordAttempt({ deliveryId: claim!.delivery.id, claimToken: claim!.claimToken }, attempt(t0, { statusCode: 200 }), attemptOutcome({ kind: 'delivered' }, 1, t0));
      const again = await store.queue.redeliver(orgId, formId, destination.id, claim!.delivery.id, t0 + 1000);
      expect(again).toMatchObject({
        status: 'pending',
        scheduleStep: 0,
        nextAttemptAt: t0 + 1000,
        webhookId: claim!.delivery.webhookId,
        body: claim!.delivery.body,
      });
      expect(again.attempts).toHaveLength(1);
      expect((await claimDue(t0 + 1000)).map((c) => c.delivery.id)).toEqual([claim!.delivery.id]);
      await expectNotFound(store.queue.redeliver(orgId, formId, destination.id, 987654, t0));
      await expectNotFound(store.queue.redeliver(otherOrgId, formId, destination.id, claim!.delivery.id, t0));
    });

    // Signing secrets at rest -----------------------------------------------------------

    /** The secret's own text and its key's bytes in Base64, neither of which may be stored. */
    function clearForms(secret: string): string[] {
      return [secret, secret.slice('whsec_'.length)];
    }

    it('stores signing secrets sealed, and gives them back in clear', async () => {
      const created = await createDestination();
      const rotated = await store.destinations.rotateSecret(orgId, formId, created.id, 3_600_000, randomUUID());
      const raw = await adapter.rawDestination(created.id);
      for (const secret of [rotated.secrets.current, rotated.secrets.retired[0]!.secret]) {
        for (const clear of clearForms(secret)) expect(raw).not.toContain(clear);
      }
      expect(raw).toContain('enc:v1:');
      const reopened = await reopen(new SecretCipher(testKey));
      expect((await reopened.destinations.getDestination(orgId, formId, created.id))!.secrets).toEqual(rotated.secrets);
      expect(await reopened.destinations.sealSecrets()).toBe(0);
    });

    it('stores an email transport\'s SMTP password sealed, gives it back in clear, and keeps a format\'s parameters', async () => {
      const password = 'smtp-Pa55word-of-the-office';
      const created = await createDestination({
        format: 'pdf_format',
        formatParameters: { file_name_template: '{{form_name}}' },
        transport: { type: 'email_transport', parameters: { to_addresses: 'office@example.com', via_custom_smtp: true, smtp_address: 'mail.example.com', password } },
      });
      const raw = await adapter.rawDestination(created.id);
      expect(raw).not.toContain(password);
      expect(raw).toContain('mail.example.com');
      const reopened = await reopen(new SecretCipher(testKey));
      const read = (await reopened.destinations.getDestination(orgId, formId, created.id))!;
      expect(read.transport).toEqual({ type: 'email_transport', parameters: expect.objectContaining({ password }) });
      expect(read.formatParameters).toEqual({ file_name_template: '{{form_name}}' });
      const updated = await reopened.destinations.updateDestination(orgId, formId, created.id, { formatParameters: { file_name_template: 'report' } });
      expect(updated.formatParameters).toEqual({ file_name_template: 'report' });
      expect(updated.formatUpdatedAt >= read.formatUpdatedAt).toBe(true);
      expect(updated.transportUpdatedAt).toBe(read.transportUpdatedAt);
    });

    it('keeps a delivery\'s first document: a second save leaves it; it goes with its delivery', async () => {
      const created = await createDestination();
      await store.queue.createDeliveries([delivery(created.id, 1)], t0);
      const [logged] = (await store.queue.listDeliveries(orgId, formId, created.id, { offset: 0, limit: 10 })).deliveries;
      expect(await store.documents.getDocument(logged!.id)).toBeNull();
      const first = { message: { subject: 's', text: 't', html: null, attach: true }, contentType: 'application/pdf', fileName: 'a.pdf', bytes: Buffer.from('%PDF-1'), createdAt: new Date(t0).toISOString() };
      expect(await store.documents.saveDocument(logged!.id, first)).toEqual(first);
      expect(await store.documents.saveDocument(logged!.id, { ...first, fileName: 'b.pdf', bytes: Buffer.from('%PDF-2') })).toEqual(first);
      expect(await store.documents.getDocument(logged!.id)).toEqual(first);
      expect((await store.queue.getDelivery(orgId, formId, created.id, logged!.id)).id).toBe(logged!.id);
      await expect(store.queue.getDelivery(otherOrgId, formId, created.id, logged!.id)).rejects.toMatchObject({ code: 'not_found' });
      await store.destinations.deleteDestination(orgId, formId, created.id);
      expect(await store.documents.getDocument(logged!.id)).toBeNull();
    });

    it("lists a month's deliveries of the organization for the performance metric report, in pages, with their attempt, sizes and destination", async () => {
      const hook = await createDestination();
      const xml = await createDestination({ description: null, format: 'xml_format' });
      const foreign = await createDestination({ orgId: otherOrgId });
      await store.queue.createDeliveries([delivery(hook.id, 1), delivery(hook.id, 2), delivery(xml.id, 3)], t0);
      await store.queue.createDeliveries([delivery(foreign.id, 9, { orgId: otherOrgId })], t0);
      await store.queue.createDeliveries([delivery(hook.id, 4)], t0 + 40 * 86_400_000);
      const [claimed] = (await claimDue(t0)).filter((claim) => claim.delivery.submissionId === 1);
      await store.queue.recordAttempt(
        { deliveryId: claimed!.delivery.id, claimToken: claimed!.claimToken },
        attempt(t0 + 1000, { statusCode: 200, durationMs: 500 }),
        attemptOutcome({ kind: 'delivered' }, 1, t0 + 1500),
      );
      const all = await store.metrics.performanceMetrics(orgId, { from: new Date(t0 - 3_600_000).toISOString(), to: new Date(t0 + 86_400_000).toISOString() }, null, 100);
      expect(all.map((metric) => metric.submissionId)).toEqual([1, 2, 3]);
      const second = all[1]!;
      await store.documents.saveDocument(second.deliveryId, { message: { subject: 's', text: 't', html: null, attach: true }, contentType: 'application/pdf', fileName: 'a.pdf', bytes: Buffer.from('%PDF-1'), createdAt: new Date(t0).toISOString() });
      await store.destinations.updateDestination(orgId, formId, xml.id, { active: false });
      const range = { from: new Date(t0 - 3_600_000).toISOString(), to: new Date(t0 + 86_400_000).toISOString() };
      const [first, withDocument, inactive] = await store.metrics.performanceMetrics(orgId, range, null, 100);
      expect(first).toEqual({
        deliveryId: claimed!.delivery.id,
        formId,
        destinationId: hook.id,
        destinationDescription: 'CRM',
        destinationActive: true,
        format: 'json_format',
        transportType: 'http_transport',
        submissionId: 1,
        status: 'succeeded',
        createdAt: new Date(t0).toISOString(),
        lastAttempt: { attemptedAt: new Date(t0 + 1000).toISOString(), durationMs: 500 },
        documentBytes: null,
        bodyBytes: Buffer.byteLength('{"submission":1}'),
      });
      expect(withDocument).toMatchObject({ submissionId: 2, documentBytes: 6, lastAttempt: null, status: 'pending' });
      expect(inactive).toMatchObject({ submissionId: 3, destinationDescription: null, destinationActive: false, format: 'xml_format' });
      const page = await store.metrics.performanceMetrics(orgId, range, null, 2);
      expect(page.map((metric) => metric.submissionId)).toEqual([1, 2]);
      const next = await store.metrics.performanceMetrics(orgId, range, { createdAt: page[1]!.createdAt, deliveryId: page[1]!.deliveryId }, 2);
      expect(next.map((metric) => metric.submissionId)).toEqual([3]);
      expect(await store.metrics.performanceMetrics(otherOrgId, range, null, 100)).toHaveLength(1);
    });

    it('seals secrets stored in clear by an older release, once', async () => {
      const created = await createDestination();
      const secrets = { current: 'whsec_' + Buffer.alloc(32, 1).toString('base64'), retired: [{ secret: 'whsec_' + Buffer.alloc(32, 2).toString('base64'), expiresAt: new Date(Date.now() + 60_000).toISOString() }] };
      await adapter.writeInClear(created.id, secrets);
      expect((await store.destinations.getDestination(orgId, formId, created.id))!.secrets).toEqual(secrets);
      expect(await store.destinations.sealSecrets()).toBe(1);
      const raw = await adapter.rawDestination(created.id);
      for (const clear of [...clearForms(secrets.current), ...clearForms(secrets.retired[0]!.secret)]) expect(raw).not.toContain(clear);
      expect((await store.destinations.getDestination(orgId, formId, created.id))!.secrets).toEqual(secrets);
      expect(await store.destinations.sealSecrets()).toBe(0);
    });

    it('refuses a key that did not seal the secrets, on sealing and on reading, changing nothing', async () => {
      const created = await createDestination();
      const before = await adapter.rawDestination(created.id);
      const wrong = await reopen(new SecretCipher(otherKey));
      await expect(wrong.destinations.sealSecrets()).rejects.toThrow(SecretsKeyError);
      await expect(wrong.destinations.sealSecrets()).rejects.toThrow(/not with DELIVERY_SECRETS_KEY/);
      await expect(wrong.destinations.getDestination(orgId, formId, created.id)).rejects.toThrow(SecretsKeyError);
      await wrong.queue.createDeliveries([delivery(created.id, 1)], t0);
      await expect(claimDue(t0)).rejects.toThrow(SecretsKeyError);
      expect(await adapter.rawDestination(created.id)).toBe(before);
    });

    it('reads secrets sealed with the previous key during a key rotation, and seals them with the new one', async () => {
      const created = await createDestination();
      const rotatedKey = await reopen(new SecretCipher(otherKey, testKey));
      expect((await rotatedKey.destinations.getDestination(orgId, formId, created.id))!.secrets).toEqual(created.secrets);
      expect(await rotatedKey.destinations.sealSecrets()).toBe(1);
      const newOnly = await reopen(new SecretCipher(otherKey));
      expect((await newOnly.destinations.getDestination(orgId, formId, created.id))!.secrets).toEqual(created.secrets);
      const oldOnly = await reopen(new SecretCipher(testKey));
      await expect(oldOnly.destinations.sealSecrets()).rejects.toThrow(SecretsKeyError);
    });

    // A form deleted ----------------------------------------------------------------------

    it("removes a form's destinations with their deliveries, once, and nothing of other forms", async () => {
      const first = await createDestination();
      const second = await createDestination({ format: 'xml_format' });
      const otherForm = await createDestination({ formId: otherFormId });
      const otherOrg = await createDestination({ orgId: otherOrgId });
      await store.queue.createDeliveries([delivery(first.id, 1), delivery(second.id, 1), delivery(otherForm.id, 2, { formId: otherFormId })], t0);
      await store.queue.createDeliveries([delivery(otherOrg.id, 3, { orgId: otherOrgId })], t0);
      expect(await store.destinations.deleteFormDestinations(orgId, formId)).toBe(2);
      expect(await store.destinations.listDestinations(orgId, formId)).toEqual([]);
      await expectNotFound(store.queue.listDeliveries(orgId, formId, first.id, { offset: 0, limit: 10 }));
      expect((await claimDue(t0)).map((claim) => claim.destination.id).sort()).toEqual([otherForm.id, otherOrg.id].sort());
      expect(await store.destinations.deleteFormDestinations(orgId, formId)).toBe(0);
      expect((await store.destinations.listDestinations(orgId, otherFormId)).map((d) => d.id)).toEqual([otherForm.id]);
      expect((await store.destinations.listDestinations(otherOrgId, formId)).map((d) => d.id)).toEqual([otherOrg.id]);
    });

    it('walks the forms that have destinations, once each, by organization then form, a page at a time', async () => {
      await createDestination({ orgId: otherOrgId, formId: 5 });
      await createDestination({ formId: otherFormId });
      await createDestination();
      await createDestination();
      await createDestination({ formId: 3 });
      await createDestination({ formId: otherFormId });
      const walked: Array<{ orgId: number; formId: number }> = [];
      for (let after: { orgId: number; formId: number } | undefined, pages = 0; pages < 10; pages += 1) {
        const page = await store.destinations.formsWithDestinations(after, 2);
        expect(page.length).toBeLessThanOrEqual(2);
        if (page.length === 0) break;
        walked.push(...page);
        after = page[page.length - 1];
      }
      expect(walked).toEqual([
        { orgId, formId: 3 },
        { orgId, formId },
        { orgId, formId: otherFormId },
        { orgId: otherOrgId, formId: 5 },
      ]);
      await store.destinations.deleteFormDestinations(orgId, formId);
      expect(await store.destinations.formsWithDestinations({ orgId, formId: 3 }, 10)).toEqual([
        { orgId, formId: otherFormId },
        { orgId: otherOrgId, formId: 5 },
      ]);
    });

    // Retention ------------------------------------------------------------------------------

    /** Attempts the due deliveries of `submissionIds` at `at`, with `result`. */
    async function finish(at: number, submissionIds: number[], result: 'delivered' | 'gone' | 'failed', step = 1) {
      const claims = (await claimDue(at)).filter((claim) => submissionIds.includes(claim.delivery.submissionId));
      for (const claim of claims) {
        await store.queue.recordAttempt(
          { deliveryId: claim.delivery.id, claimToken: claim.claimToken },
          attempt(at, { statusCode: result === 'delivered' ? 200 : 500 }),
          attemptOutcome({ kind: result }, step, at, 0.5),
        );
      }
      expect(claims).toHaveLength(submissionIds.length);
    }

    it('sweeps deliveries that ended before a time, with their attempts, a batch at a time; never pending ones', async () => {
      const day = 24 * 3_600_000;
      const destination = await createDestination();
      const other = await createDestination();
      // Each made just before its attempt: claiming takes all that are due.
      await store.queue.createDeliveries([delivery(destination.id, 1), delivery(destination.id, 2), delivery(other.id, 9)], t0);
      await finish(t0, [1, 2, 9], 'delivered');
      await store.queue.createDeliveries([delivery(destination.id, 3)], t0);
      await finish(t0, [3], 'failed', 8); // given up
      // 4 stays pending: failed once, retried later.
      await store.queue.createDeliveries([delivery(destination.id, 4)], t0);
      await finish(t0, [4], 'failed', 1);
      await store.queue.createDeliveries([delivery(destination.id, 5)], t0 + 10 * day);
      await finish(t0 + 10 * day, [5], 'delivered');

      const cutoff = t0 + day;
      expect(await store.queue.sweepEnded(cutoff, 2)).toBe(2);
      expect(await store.queue.sweepEnded(cutoff, 2)).toBe(2);
      expect(await store.queue.sweepEnded(cutoff, 2)).toBe(0);
      const log = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries;
      expect(log.map((d) => [d.submissionId, d.status])).toEqual([
        [5, 'succeeded'],
        [4, 'pending'],
      ]);
      expect(log[1]!.attempts).toHaveLength(1);
      expect((await store.queue.listDeliveries(orgId, formId, other.id, { offset: 0, limit: 10 })).total).toBe(0);
      // Much later, the pending one is still kept; the recent one goes in its turn.
      expect(await store.queue.sweepEnded(t0 + 100 * day, 10)).toBe(1);
      expect((await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 10 })).deliveries.map((d) => d.submissionId)).toEqual([4]);
    });

    it('keeps an old delivery redelivered since: it is pending again', async () => {
      const destination = await createDestination();
      await store.queue.createDeliveries([delivery(destination.id, 1)], t0);
      await finish(t0, [1], 'delivered');
      const [done] = (await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 1 })).deliveries;
      await store.queue.redeliver(orgId, formId, destination.id, done!.id, t0 + 1000);
      expect(await store.queue.sweepEnded(t0 + 5000, 10)).toBe(0);
      expect((await store.queue.listDeliveries(orgId, formId, destination.id, { offset: 0, limit: 1 })).total).toBe(1);
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
