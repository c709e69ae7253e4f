import { randomUUID } from 'node:crypto';
import { isAppError } from '@formcast/platform';
import { pushEvents, type Envelope, type ErrorCode, type OneshotEventPayload, type PushEventType } from '@formcast/contracts';
import { oneshotEvent, type OneshotEventFactory } from '../../src/domain/oneshot-events';
import type { Oneshot, OneshotSummary } from '../../src/domain/records';
import type { CommandWindowOptions, NewOneshot, OutboxEntry, PushStore } from '../../src/store';

/** How the suite asks an adapter for a store; the adapter's defaults for what is absent. */
export interface PushStoreTestOptions extends CommandWindowOptions {
  /** The page size of `streamOutstandingForOrganization`; the adapter's default when absent. */
  pageSize?: number;
}

export interface PushStoreContractOptions {
  /**
   * Durable adapters: a second store on the same data as `store` (same file, same database),
   * opened as a process would after a restart. The suite closes both.
   */
  reopen?: (store: PushStore) => Promise<PushStore>;
}

/**
 * The behaviour every PushStore adapter must have: one suite, run against each adapter (see
 * the port's doc comment in src/store/push-store.ts for the rules checked here). `makeStore`
 * gives a fresh, empty store for each test, honouring the options; the suite closes it.
 */
export function describePushStoreContract(
  name: string,
  makeStore: (options: PushStoreTestOptions) => Promise<PushStore>,
  contractOptions: PushStoreContractOptions = {},
): void {
  describe(name, () => {
    const opened: PushStore[] = [];
    let store: PushStore;

    async function open(options: PushStoreTestOptions = {}): Promise<PushStore> {
      const made = await makeStore(options);
      opened.push(made);
      return made;
    }

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    // Fixtures ---------------------------------------------------------------------------

    const orgA = 1;
    const orgB = 2;
    const deviceX = 10;
    const deviceY = 11;
    const unknownId = 987654;
    const pushToken = 'fcm-token-x';

    /** A factory built with `oneshotEvent`, remembering what the store handed it. */
    interface RecordingFactory extends OneshotEventFactory {
      calls: Array<{ oneshot: Oneshot; outstandingCount: number }>;
    }

    function events(type: PushEventType, requestId = `req-${type}`): RecordingFactory {
      const build = oneshotEvent(type, pushToken, requestId);
      const calls: RecordingFactory['calls'] = [];
      const factory = (oneshot: Oneshot, outstandingCount: number) => {
        calls.push({ oneshot: structuredClone(oneshot), outstandingCount });
        return build(oneshot, outstandingCount);
      };
      return Object.assign(factory, { calls });
    }

    const created = () => events(pushEvents.oneshotCreated);
    const updated = () => events(pushEvents.oneshotUpdated);
    const revoked = () => events(pushEvents.oneshotRevoked);
    const completed = () => events(pushEvents.oneshotCompleted);

    const failingFactory: OneshotEventFactory = () => {
      throw new Error('the event could not be built');
    };

    /** Every transition is asked for by a command of its own, as the handlers do. */
    const nextCommandId = () => randomUUID();

    let serial = 0;
    function newOneshot(extra: Partial<NewOneshot> = {}): NewOneshot {
      serial += 1;
      return {
        orgId: orgA,
        deviceId: deviceX,
        deviceIdentifier: 'Android_van3',
        formId: 7,
        templateNamespace: 'http://forms.example.com/inspection',
        namespace: `http://forms.example.com/inspection?uuid-${serial}`,
        name: 'Inspection',
        description: 'Weekly site inspection',
        payload: { site: 'North yard', readings: [{ value: '1.5' }, { value: '2' }], notes: {} },
        ...extra,
      };
    }

    function createOne(extra: Partial<NewOneshot> = {}): Promise<Oneshot> {
      return store.create(newOneshot(extra), created(), nextCommandId());
    }

    async function createMany(count: number, extra: Partial<NewOneshot> = {}): Promise<Oneshot[]> {
      const made: Oneshot[] = [];
      for (let i = 0; i < count; i += 1) made.push(await createOne(extra));
      return made;
    }

    async function outbox(from: PushStore = store): Promise<OutboxEntry[]> {
      return from.unpublishedEvents(10_000);
    }

    async function outboxEvents(from: PushStore = store): Promise<Envelope[]> {
      return (await outbox(from)).map((entry) => entry.event);
    }

    async function emptyOutbox(): Promise<void> {
      await store.markPublished((await outbox()).map((entry) => entry.seq));
    }

    function payloadOf(event: Envelope | undefined): OneshotEventPayload {
      if (!event) throw new Error('no event');
      return event.payload as OneshotEventPayload;
    }

    async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
      const all: T[] = [];
      for await (const item of iterable) all.push(item);
      return all;
    }

    const ids = (oneshots: Array<{ id: number }>) => oneshots.map((oneshot) => oneshot.id);

    /** What the organization listing shows of each. */
    const summaries = (oneshots: Oneshot[]): OneshotSummary[] =>
      oneshots.map(({ id, orgId, deviceId, name, description, namespace }) => ({ id, orgId, deviceId, name, description, namespace }));

    async function expectAppError(action: Promise<unknown>, code: ErrorCode): Promise<void> {
      const error: unknown = await action.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      if (!isAppError(error)) throw new Error(`expected an AppError '${code}', got ${String(error)}`);
      expect(error.code).toBe(code);
    }

    /** What a test may compare before and after a refused change. */
    async function snapshot() {
      return {
        outbox: await outbox(),
        deviceX: await store.listOutstandingForDevice(orgA, deviceX),
        deviceY: await store.listOutstandingForDevice(orgA, deviceY),
        orgB: await store.listOutstandingForDevice(orgB, deviceX),
      };
    }

    const isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    /** One outstanding, one revoked and one completed oneshot on deviceX of orgA; and others' ones. */
    async function mixedStates() {
      const outstanding = await createOne();
      const revokedOne = await createOne();
      const completedOne = await createOne();
      const onDeviceY = await createOne({ deviceId: deviceY });
      const inOrgB = await createOne({ orgId: orgB });
      await store.revoke(orgA, deviceX, revokedOne.id, revoked(), nextCommandId());
      await store.complete(orgA, deviceX, completedOne.id, { site: 'done' }, completed(), nextCommandId());
      return { outstanding, revokedOne, completedOne, onDeviceY, inOrgB };
    }

    // create -----------------------------------------------------------------------------

    describe('create', () => {
      it('writes an outstanding oneshot with every field given, readable with get', async () => {
        const input = newOneshot();
        const oneshot = await store.create(input, created(), nextCommandId());

        expect(oneshot).toEqual({
          ...input,
          id: expect.any(Number),
          state: 'outstanding',
          createdAt: isoTimestamp,
          updatedAt: isoTimestamp,
        });
        expect(oneshot.updatedAt).toBe(oneshot.createdAt);
        expect(await store.get(orgA, oneshot.id)).toEqual(oneshot);
      });

      it('gives ascending positive integer ids', async () => {
        const made = await createMany(3);
        made.push(await createOne({ orgId: orgB }), await createOne({ deviceId: deviceY }));
        for (const oneshot of made) {
          expect(Number.isInteger(oneshot.id)).toBe(true);
          expect(oneshot.id).toBeGreaterThan(0);
        }
        expect(ids(made)).toEqual([...ids(made)].sort((a, b) => a - b));
        expect(new Set(ids(made)).size).toBe(made.length);
      });

      it('writes exactly one event, the one the factory built, with the device outstanding count after it', async () => {
        const factory = created();
        const oneshot = await store.create(newOneshot(), factory, nextCommandId());

        const written = await outbox();
        expect(written).toHaveLength(1);
        expect(written[0]!.event).toEqual({
          id: expect.any(String),
          type: pushEvents.oneshotCreated,
          occurredAt: isoTimestamp,
          orgId: orgA,
          requestId: `req-${pushEvents.oneshotCreated}`,
          payload: {
            oneshotId: oneshot.id,
            orgId: orgA,
            deviceId: deviceX,
            deviceIdentifier: 'Android_van3',
            pushToken,
            name: oneshot.name,
            description: oneshot.description,
            namespace: oneshot.namespace,
            outstandingCount: 1,
          },
        });
        expect(factory.calls.at(-1)).toEqual({ oneshot, outstandingCount: 1 });
      });

      it('counts per device and per organization', async () => {
        await createMany(2);
        await createOne({ deviceId: deviceY });
        await createOne({ orgId: orgB }); // same device id, another organization
        await createOne();

        expect((await outboxEvents()).map((event) => [event.orgId, payloadOf(event).deviceId, payloadOf(event).outstandingCount])).toEqual([
          [orgA, deviceX, 1],
          [orgA, deviceX, 2],
          [orgA, deviceY, 1],
          [orgB, deviceX, 1],
          [orgA, deviceX, 3],
        ]);
      });

      it('does not count ended oneshots', async () => {
        await mixedStates();
        await emptyOutbox();
        await createOne();
        expect(payloadOf((await outboxEvents())[0]).outstandingCount).toBe(2);
      });

      it('writes nothing when the event cannot be built', async () => {
        await expect(store.create(newOneshot(), failingFactory, nextCommandId())).rejects.toThrow('the event could not be built');
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([]);
        expect(await outbox()).toEqual([]);
        const next = await createOne();
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([next]);
      });
    });

    // update -----------------------------------------------------------------------------

    describe('update', () => {
      it('replaces the payload, name and description, keeping the rest', async () => {
        const before = await createOne();
        const after = await store.update(
          orgA,
          deviceX,
          before.id,
          { payload: { site: 'South yard' }, name: 'Re-inspection', description: 'After the storm' },
          updated(),
          nextCommandId(),
        );

        expect(after).toEqual({
          ...before,
          payload: { site: 'South yard' },
          name: 'Re-inspection',
          description: 'After the storm',
          updatedAt: isoTimestamp,
        });
        expect(after.updatedAt >= before.createdAt).toBe(true);
        expect(await store.get(orgA, before.id)).toEqual(after);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([after]);
      });

      it('keeps the name and description when they are omitted or undefined', async () => {
        const before = await createOne();
        await store.update(orgA, deviceX, before.id, { payload: { site: 'A' }, name: 'Renamed' }, updated(), nextCommandId());
        await store.update(orgA, deviceX, before.id, { payload: { site: 'B' }, description: 'Described' }, updated(), nextCommandId());
        const after = await store.update(
          orgA,
          deviceX,
          before.id,
          { payload: {}, name: undefined, description: undefined },
          updated(),
          nextCommandId(),
        );
        expect(after).toMatchObject({ payload: {}, name: 'Renamed', description: 'Described' });
        expect(await store.get(orgA, before.id)).toEqual(after);
      });

      it('accepts an empty name or description as a value', async () => {
        const before = await createOne();
        const after = await store.update(orgA, deviceX, before.id, { payload: { site: 'A' }, description: '' }, updated(), nextCommandId());
        expect(after.description).toBe('');
        expect(await store.get(orgA, before.id)).toEqual(after);
      });

      it('writes one updated event with the unchanged outstanding count', async () => {
        const [first] = await createMany(2);
        await emptyOutbox();
        const factory = updated();
        const after = await store.update(orgA, deviceX, first!.id, { payload: { site: 'A' }, name: 'New name' }, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written).toHaveLength(1);
        expect(written[0]).toMatchObject({
          type: pushEvents.oneshotUpdated,
          orgId: orgA,
          payload: { oneshotId: first!.id, name: 'New name', outstandingCount: 2 },
        });
        expect(factory.calls.at(-1)).toEqual({ oneshot: after, outstandingCount: 2 });
      });

      it('answers not_found for a oneshot that is not outstanding on that device, changing nothing', async () => {
        const { outstanding, revokedOne, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const before = await snapshot();
        const ended = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];
        const change = { payload: { site: 'changed' }, name: 'changed', description: 'changed' };

        await expectAppError(store.update(orgA, deviceX, unknownId, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(store.update(orgB, deviceX, outstanding.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(store.update(orgA, deviceX, inOrgB.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(store.update(orgA, deviceY, outstanding.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(store.update(orgA, deviceX, onDeviceY.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(store.update(orgA, deviceX, revokedOne.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(store.update(orgA, deviceX, completedOne.id, change, updated(), nextCommandId()), 'not_found');

        expect(await snapshot()).toEqual(before);
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(ended);
        expect(await store.get(orgB, inOrgB.id)).toEqual(inOrgB);
      });

      it('changes nothing when the event cannot be built', async () => {
        const before = await createOne();
        await emptyOutbox();
        await expect(
          store.update(orgA, deviceX, before.id, { payload: { site: 'changed' }, name: 'changed' }, failingFactory, nextCommandId()),
        ).rejects.toThrow('the event could not be built');
        expect(await store.get(orgA, before.id)).toEqual(before);
        expect(await outbox()).toEqual([]);
      });
    });

    // revoke -----------------------------------------------------------------------------

    describe('revoke', () => {
      it('ends the oneshot as revoked, gone from the listings but still readable', async () => {
        const [first, second] = await createMany(2);
        const after = await store.revoke(orgA, deviceX, first!.id, revoked(), nextCommandId());

        expect(after).toEqual({ ...first, state: 'revoked', updatedAt: isoTimestamp });
        expect(await store.get(orgA, first!.id)).toEqual(after);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
        expect(await collect(store.streamOutstandingForOrganization(orgA))).toEqual(summaries([second!]));
        expect(await store.getSubmission(orgA, first!.id)).toBeNull();
      });

      it('writes one revoked event with the count decremented', async () => {
        const [first] = await createMany(3);
        await emptyOutbox();
        const factory = revoked();
        const after = await store.revoke(orgA, deviceX, first!.id, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written).toHaveLength(1);
        expect(written[0]).toMatchObject({
          type: pushEvents.oneshotRevoked,
          payload: { oneshotId: first!.id, deviceId: deviceX, outstandingCount: 2 },
        });
        expect(factory.calls.at(-1)).toEqual({ oneshot: after, outstandingCount: 2 });
      });

      it('answers not_found for a oneshot that is not outstanding on that device, changing nothing', async () => {
        const { outstanding, revokedOne, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const before = await snapshot();
        const ended = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];

        await expectAppError(store.revoke(orgA, deviceX, unknownId, revoked(), nextCommandId()), 'not_found');
        await expectAppError(store.revoke(orgB, deviceX, outstanding.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(store.revoke(orgA, deviceX, inOrgB.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(store.revoke(orgA, deviceY, outstanding.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(store.revoke(orgA, deviceX, onDeviceY.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(store.revoke(orgA, deviceX, revokedOne.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(store.revoke(orgA, deviceX, completedOne.id, revoked(), nextCommandId()), 'not_found');

        expect(await snapshot()).toEqual(before);
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(ended);
        expect(await store.getSubmission(orgA, completedOne.id)).not.toBeNull();
      });

      it('changes nothing when the event cannot be built', async () => {
        const before = await createOne();
        await emptyOutbox();
        await expect(store.revoke(orgA, deviceX, before.id, failingFactory, nextCommandId())).rejects.toThrow(
          'the event could not be built',
        );
        expect(await store.get(orgA, before.id)).toEqual(before);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([before]);
        expect(await outbox()).toEqual([]);
      });
    });

    // revokeAll --------------------------------------------------------------------------

    describe('revokeAll', () => {
      it("revokes every outstanding oneshot of the device and nobody else's, ascending by id", async () => {
        const { outstanding, revokedOne, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const more = await createMany(2);
        const endedBefore = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];

        const result = await store.revokeAll(orgA, deviceX, revoked(), nextCommandId());

        const expected = [outstanding, ...more].map((oneshot) => ({ ...oneshot, state: 'revoked', updatedAt: isoTimestamp }));
        expect(result).toEqual(expected);
        for (const oneshot of result) expect(await store.get(orgA, oneshot.id)).toEqual(oneshot);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([]);
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(endedBefore);
        expect(await store.listOutstandingForDevice(orgA, deviceY)).toEqual([onDeviceY]);
        expect(await store.listOutstandingForDevice(orgB, deviceX)).toEqual([inOrgB]);
      });

      it('writes one revoked event per oneshot, oldest first, with the count going down to zero', async () => {
        const made = await createMany(3);
        await createOne({ deviceId: deviceY });
        await emptyOutbox();
        const factory = revoked();

        const result = await store.revokeAll(orgA, deviceX, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written.map((event) => [event.type, payloadOf(event).oneshotId, payloadOf(event).outstandingCount])).toEqual([
          [pushEvents.oneshotRevoked, made[0]!.id, 2],
          [pushEvents.oneshotRevoked, made[1]!.id, 1],
          [pushEvents.oneshotRevoked, made[2]!.id, 0],
        ]);
        expect(factory.calls.slice(-3)).toEqual(result.map((oneshot, i) => ({ oneshot, outstandingCount: 2 - i })));
      });

      it('answers an empty list and writes nothing when the device has none outstanding', async () => {
        await mixedStates();
        await emptyOutbox();
        const before = await snapshot();
        expect(await store.revokeAll(orgA, deviceX + 100, revoked(), nextCommandId())).toEqual([]);
        expect(await store.revokeAll(orgB, deviceY, revoked(), nextCommandId())).toEqual([]);
        await store.revokeAll(orgA, deviceX, revoked(), nextCommandId());
        await emptyOutbox();
        expect(await store.revokeAll(orgA, deviceX, revoked(), nextCommandId())).toEqual([]);
        expect(await outbox()).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceY)).toEqual(before.deviceY);
      });

      it('revokes none when one event cannot be built', async () => {
        const made = await createMany(3);
        await emptyOutbox();
        let calls = 0;
        const failsOnSecond: OneshotEventFactory = (oneshot, count) => {
          calls += 1;
          if (calls === 2) throw new Error('the event could not be built');
          return revoked()(oneshot, count);
        };
        await expect(store.revokeAll(orgA, deviceX, failsOnSecond, nextCommandId())).rejects.toThrow('the event could not be built');
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual(made);
        expect(await outbox()).toEqual([]);
      });
    });

    // complete ---------------------------------------------------------------------------

    describe('complete', () => {
      const answers = { site: 'North yard', readings: [{ value: '3' }], photo: { name: 'p.jpg', size: 12 }, empty: {} };

      it('ends the oneshot as completed and keeps the submission', async () => {
        const [first, second] = await createMany(2);
        const submission = await store.complete(orgA, deviceX, first!.id, answers, completed(), nextCommandId());

        expect(submission).toEqual({ oneshotId: first!.id, orgId: orgA, deviceId: deviceX, answers, submittedAt: isoTimestamp });
        expect(await store.getSubmission(orgA, first!.id)).toEqual(submission);
        expect(await store.get(orgA, first!.id)).toEqual({ ...first, state: 'completed', updatedAt: isoTimestamp });
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
        expect(await collect(store.streamOutstandingForOrganization(orgA))).toEqual(summaries([second!]));
      });

      it('writes one completed event with the count decremented', async () => {
        const [first] = await createMany(2);
        await emptyOutbox();
        const factory = completed();
        await store.complete(orgA, deviceX, first!.id, answers, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written).toHaveLength(1);
        expect(written[0]).toMatchObject({
          type: pushEvents.oneshotCompleted,
          payload: { oneshotId: first!.id, outstandingCount: 1 },
        });
        expect(factory.calls.at(-1)).toEqual({
          oneshot: { ...first, state: 'completed', updatedAt: isoTimestamp },
          outstandingCount: 1,
        });
      });

      it('answers conflict for a oneshot of this device that already ended, keeping the first submission', async () => {
        const { revokedOne, completedOne } = await mixedStates();
        const before = await snapshot();
        const firstSubmission = await store.getSubmission(orgA, completedOne.id);
        const ended = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];

        await expectAppError(store.complete(orgA, deviceX, revokedOne.id, answers, completed(), nextCommandId()), 'conflict');
        await expectAppError(store.complete(orgA, deviceX, completedOne.id, answers, completed(), nextCommandId()), 'conflict');

        expect(await snapshot()).toEqual(before);
        expect(await store.getSubmission(orgA, completedOne.id)).toEqual(firstSubmission);
        expect(await store.getSubmission(orgA, revokedOne.id)).toBeNull();
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(ended);
      });

      it("answers not_found for an unknown, another organization's or another device's oneshot", async () => {
        const { outstanding, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const before = await snapshot();

        await expectAppError(store.complete(orgA, deviceX, unknownId, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(store.complete(orgA, deviceX, onDeviceY.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(store.complete(orgA, deviceY, outstanding.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(store.complete(orgA, deviceY, completedOne.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(store.complete(orgA, deviceX, inOrgB.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(store.complete(orgB, deviceX, outstanding.id, answers, completed(), nextCommandId()), 'not_found');

        expect(await snapshot()).toEqual(before);
        for (const oneshot of [outstanding, onDeviceY]) expect(await store.getSubmission(orgA, oneshot.id)).toBeNull();
        expect(await store.getSubmission(orgB, inOrgB.id)).toBeNull();
      });

      it('keeps no submission when the event cannot be built', async () => {
        const before = await createOne();
        await emptyOutbox();
        await expect(store.complete(orgA, deviceX, before.id, answers, failingFactory, nextCommandId())).rejects.toThrow(
          'the event could not be built',
        );
        expect(await store.get(orgA, before.id)).toEqual(before);
        expect(await store.getSubmission(orgA, before.id)).toBeNull();
        expect(await outbox()).toEqual([]);
        // and it can still be completed
        await store.complete(orgA, deviceX, before.id, answers, completed(), nextCommandId());
        expect(await store.getSubmission(orgA, before.id)).toMatchObject({ answers });
      });
    });

    // The same command again ----------------------------------------------------------------

    describe('a command delivered again (same command id)', () => {
      it('create: returns the same oneshot, creating one oneshot with one event only', async () => {
        const commandId = nextCommandId();
        const input = newOneshot();
        const first = await store.create(input, created(), commandId);
        const factory = created();

        expect(await store.create(input, factory, commandId)).toEqual(first);
        expect(factory.calls).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([first]);
        expect(await outboxEvents()).toHaveLength(1);

        // Also once the first event has gone out.
        await emptyOutbox();
        expect(await store.create(input, created(), commandId)).toEqual(first);
        expect(await outbox()).toEqual([]);
      });

      it('create: different command ids still create two', async () => {
        const input = newOneshot();
        const first = await store.create(input, created(), nextCommandId());
        const second = await store.create(input, created(), nextCommandId());

        expect(second.id).not.toBe(first.id);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([first, second]);
        expect((await outboxEvents()).map((event) => payloadOf(event).outstandingCount)).toEqual([1, 2]);
      });

      it('update: returns the same oneshot without changing it again or writing a second event', async () => {
        const before = await createOne();
        await emptyOutbox();
        const commandId = nextCommandId();
        const change = { payload: { site: 'South yard' }, name: 'Re-inspection' };
        const first = await store.update(orgA, deviceX, before.id, change, updated(), commandId);
        const factory = updated();

        expect(await store.update(orgA, deviceX, before.id, change, factory, commandId)).toEqual(first);
        expect(factory.calls).toEqual([]);
        expect(await store.get(orgA, before.id)).toEqual(first);
        expect(await outboxEvents()).toHaveLength(1);
      });

      it('revoke: returns the revoked oneshot, not not_found, without a second event', async () => {
        const [first, second] = await createMany(2);
        await emptyOutbox();
        const commandId = nextCommandId();
        const revokedFirst = await store.revoke(orgA, deviceX, first!.id, revoked(), commandId);

        expect(await store.revoke(orgA, deviceX, first!.id, revoked(), commandId)).toEqual(revokedFirst);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
        expect((await outboxEvents()).map((event) => [event.type, payloadOf(event).outstandingCount])).toEqual([
          [pushEvents.oneshotRevoked, 1],
        ]);
        // Another command revoking it is refused as before.
        await expectAppError(store.revoke(orgA, deviceX, first!.id, revoked(), nextCommandId()), 'not_found');
      });

      it('revokeAll: returns the oneshots it revoked the first time, leaving one created since outstanding', async () => {
        const made = await createMany(2);
        await emptyOutbox();
        const commandId = nextCommandId();
        const first = await store.revokeAll(orgA, deviceX, revoked(), commandId);
        const createdSince = await createOne();

        expect(await store.revokeAll(orgA, deviceX, revoked(), commandId)).toEqual(first);
        expect(ids(first)).toEqual(ids(made));
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([createdSince]);
        expect((await outboxEvents()).map((event) => event.type)).toEqual([
          pushEvents.oneshotRevoked,
          pushEvents.oneshotRevoked,
          pushEvents.oneshotCreated,
        ]);
      });

      it('revokeAll: revoking none is an answer too, repeated as none', async () => {
        const commandId = nextCommandId();
        expect(await store.revokeAll(orgA, deviceX, revoked(), commandId)).toEqual([]);
        const createdSince = await createOne();

        expect(await store.revokeAll(orgA, deviceX, revoked(), commandId)).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([createdSince]);
      });

      it('complete: returns the same submission, not conflict, keeping the first answers and one event', async () => {
        const oneshot = await createOne();
        await emptyOutbox();
        const commandId = nextCommandId();
        const first = await store.complete(orgA, deviceX, oneshot.id, { site: 'first' }, completed(), commandId);

        expect(await store.complete(orgA, deviceX, oneshot.id, { site: 'first' }, completed(), commandId)).toEqual(first);
        expect(await store.getSubmission(orgA, oneshot.id)).toEqual(first);
        expect(await outboxEvents()).toHaveLength(1);
        // Another command submitting it conflicts as before.
        await expectAppError(store.complete(orgA, deviceX, oneshot.id, { site: 'second' }, completed(), nextCommandId()), 'conflict');
      });

      it('a command that failed is not recorded: delivered again, it is applied', async () => {
        const commandId = nextCommandId();
        await expect(store.create(newOneshot(), failingFactory, commandId)).rejects.toThrow('the event could not be built');
        const made = await store.create(newOneshot(), created(), commandId);

        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([made]);
        expect(await outboxEvents()).toHaveLength(1);
      });

      it('duplicates handled at the same moment end with one change', async () => {
        const commandId = nextCommandId();
        const input = newOneshot();
        const results = await Promise.all([1, 2, 3].map(() => store.create(input, created(), commandId)));

        expect(results.map((oneshot) => oneshot.id)).toEqual([results[0]!.id, results[0]!.id, results[0]!.id]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([results[0]]);
        expect(await outboxEvents()).toHaveLength(1);
      });
    });

    describe('applied command ids', () => {
      const minute = 60_000;

      it('are forgotten once older than the window, by a later write; recent ones are kept', async () => {
        let now = Date.parse('2030-01-01T00:00:00.000Z');
        store = await open({ clock: () => new Date(now), commandWindowMs: 60 * minute, pruneEvery: 1 });
        const oldCommand = nextCommandId();
        const recentCommand = nextCommandId();
        const old = await store.create(newOneshot(), created(), oldCommand);
        now += 50 * minute;
        const recent = await store.create(newOneshot(), created(), recentCommand); // prunes: nothing expired yet
        expect(await store.create(newOneshot(), created(), oldCommand)).toEqual(old);

        now += 20 * minute; // old: 70 minutes, recent: 20
        await store.create(newOneshot(), created(), nextCommandId()); // prunes the old one

        expect(await store.create(newOneshot(), created(), recentCommand)).toEqual(recent);
        // Past the window a repeat is a new command (none comes back that late).
        const late = await store.create(newOneshot(), created(), oldCommand);
        expect(late.id).not.toBe(old.id);
      });

      it('are only forgotten every `pruneEvery` writes', async () => {
        let now = Date.parse('2030-01-01T00:00:00.000Z');
        store = await open({ clock: () => new Date(now), commandWindowMs: minute, pruneEvery: 3 });
        const oldCommand = nextCommandId();
        const old = await store.create(newOneshot(), created(), oldCommand); // 1st write
        now += 2 * minute;
        await store.create(newOneshot(), created(), nextCommandId()); // 2nd: no pruning
        expect(await store.create(newOneshot(), created(), oldCommand)).toEqual(old);
        await store.create(newOneshot(), created(), nextCommandId()); // 3rd: prunes

        expect((await store.create(newOneshot(), created(), oldCommand)).id).not.toBe(old.id);
      });
    });

    // Reads ------------------------------------------------------------------------------

    describe('get and getSubmission', () => {
      it("answer null for an unknown oneshot or another organization's", async () => {
        const { completedOne, inOrgB } = await mixedStates();
        expect(await store.get(orgA, unknownId)).toBeNull();
        expect(await store.get(orgA, inOrgB.id)).toBeNull();
        expect(await store.get(orgB, completedOne.id)).toBeNull();
        expect(await store.getSubmission(orgA, unknownId)).toBeNull();
        expect(await store.getSubmission(orgB, completedOne.id)).toBeNull();
        expect(await store.getSubmission(orgA, completedOne.id)).not.toBeNull();
      });

      it('answer any state', async () => {
        const { outstanding, revokedOne, completedOne } = await mixedStates();
        expect((await store.get(orgA, outstanding.id))?.state).toBe('outstanding');
        expect((await store.get(orgA, revokedOne.id))?.state).toBe('revoked');
        expect((await store.get(orgA, completedOne.id))?.state).toBe('completed');
      });
    });

    describe('listOutstandingForDevice', () => {
      it("lists the device's outstanding oneshots ascending by id, in its organization only", async () => {
        const { outstanding } = await mixedStates();
        const more = await createMany(2);
        await createOne({ orgId: orgB, deviceId: deviceY });

        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([outstanding, ...more]);
        expect(await store.listOutstandingForDevice(orgA, unknownId)).toEqual([]);
        expect(ids(await store.listOutstandingForDevice(orgB, deviceX))).toHaveLength(1);
      });
    });

    describe('streamOutstandingForOrganization', () => {
      it("yields the organization's outstanding oneshots of every device, ascending by id, as the listing shows them", async () => {
        const { outstanding, onDeviceY, inOrgB } = await mixedStates();
        const more = await createMany(2, { deviceId: deviceY });

        expect(await collect(store.streamOutstandingForOrganization(orgA))).toEqual(summaries([outstanding, onDeviceY, ...more]));
        expect(await collect(store.streamOutstandingForOrganization(orgB))).toEqual(summaries([inOrgB]));
        expect(await collect(store.streamOutstandingForOrganization(unknownId))).toEqual([]);
      });

      it.each([
        ['less than a page', 2],
        ['exactly one page', 3],
        ['exactly two pages', 6],
        ['more than two pages', 8],
      ])('yields every one across pages (%s)', async (_label, count) => {
        store = await open({ pageSize: 3 });
        const made: Oneshot[] = [];
        for (let i = 0; i < count; i += 1) {
          made.push(await createOne({ deviceId: i % 2 === 0 ? deviceX : deviceY }));
          await createOne({ orgId: orgB }); // interleaved ids of another organization
        }
        const ended = await createMany(2);
        await store.revoke(orgA, deviceX, ended[0]!.id, revoked(), nextCommandId());
        await store.complete(orgA, deviceX, ended[1]!.id, {}, completed(), nextCommandId());

        expect(await collect(store.streamOutstandingForOrganization(orgA))).toEqual(summaries(made));
      });

      it('reads page by page, each page from the current state', async () => {
        store = await open({ pageSize: 3 });
        const made = await createMany(7);
        const seen: OneshotSummary[] = [];
        let changed = false;
        let late: Oneshot | undefined;
        for await (const oneshot of store.streamOutstandingForOrganization(orgA)) {
          seen.push(oneshot);
          if (seen.length === 3 && !changed) {
            changed = true;
            // Whole list not held: a change after the first page shows in the later ones.
            await store.revoke(orgA, deviceX, made[4]!.id, revoked(), nextCommandId());
            late = await createOne();
          }
        }
        expect(ids(seen)).toEqual([...ids(made.slice(0, 4)), made[5]!.id, made[6]!.id, late!.id]);
      });

      it.each([
        ['within a page', 2, 2],
        ['a page exactly', 3, 3],
        ['across pages', 5, 5],
        ['more than there are', 9, 7],
      ])('yields at most the limit (%s)', async (_label, limit, expected) => {
        store = await open({ pageSize: 3 });
        const made = await createMany(7);

        expect(ids(await collect(store.streamOutstandingForOrganization(orgA, 0, limit)))).toEqual(ids(made.slice(0, expected)));
        expect(ids(await collect(store.streamOutstandingForOrganization(orgA, made[4]!.id, limit)))).toEqual(ids(made.slice(5, 5 + expected)));
      });

      it('starts after the given id (the next page of a listing)', async () => {
        store = await open({ pageSize: 3 });
        const made = await createMany(7);
        await createOne({ orgId: orgB });

        expect(ids(await collect(store.streamOutstandingForOrganization(orgA, made[1]!.id)))).toEqual(ids(made.slice(2)));
        expect(ids(await collect(store.streamOutstandingForOrganization(orgA, made[5]!.id)))).toEqual([made[6]!.id]);
        expect(await collect(store.streamOutstandingForOrganization(orgA, made[6]!.id))).toEqual([]);
        expect(ids(await collect(store.streamOutstandingForOrganization(orgA, 0)))).toEqual(ids(made));
      });
    });

    // Outbox -----------------------------------------------------------------------------

    describe('outbox', () => {
      it('answers the unpublished events oldest first, as many as asked for', async () => {
        const [first, second] = await createMany(2);
        await store.update(orgA, deviceX, first!.id, { payload: {} }, updated(), nextCommandId());
        await store.revoke(orgA, deviceX, second!.id, revoked(), nextCommandId());
        await store.complete(orgA, deviceX, first!.id, {}, completed(), nextCommandId());

        const all = await outbox();
        expect(all.map((entry) => [entry.event.type, payloadOf(entry.event).oneshotId])).toEqual([
          [pushEvents.oneshotCreated, first!.id],
          [pushEvents.oneshotCreated, second!.id],
          [pushEvents.oneshotUpdated, first!.id],
          [pushEvents.oneshotRevoked, second!.id],
          [pushEvents.oneshotCompleted, first!.id],
        ]);
        const seqs = all.map((entry) => entry.seq);
        for (const seq of seqs) expect(Number.isInteger(seq)).toBe(true);
        expect(new Set(seqs).size).toBe(seqs.length);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

        expect(await store.unpublishedEvents(2)).toEqual(all.slice(0, 2));
        expect(await store.unpublishedEvents(1)).toEqual(all.slice(0, 1));
        expect(await store.unpublishedEvents(0)).toEqual([]);
      });

      it('removes the events marked published, keeping the others in order', async () => {
        await createMany(4);
        const all = await outbox();
        await store.markPublished([all[0]!.seq, all[2]!.seq]);
        expect(await outbox()).toEqual([all[1], all[3]]);
        expect(await store.unpublishedEvents(1)).toEqual([all[1]]);

        await store.markPublished([]);
        await store.markPublished([all[0]!.seq, unknownId]); // already gone, unknown: no error
        expect(await outbox()).toEqual([all[1], all[3]]);

        await store.markPublished([all[1]!.seq, all[3]!.seq]);
        expect(await outbox()).toEqual([]);
      });

      it('gives new events seqs after those already published', async () => {
        await createMany(2);
        const first = await outbox();
        await emptyOutbox();
        await createOne();
        const [next] = await outbox();
        expect(next!.seq).toBeGreaterThan(Math.max(...first.map((entry) => entry.seq)));
      });

      it('keeps the events exactly as built', async () => {
        const oneshot = await createOne({ description: 'Ünïcödé ✓ "quoted"', name: 'Name & <markup>' });
        const [entry] = await outbox();
        const rebuilt = oneshotEvent(pushEvents.oneshotCreated, pushToken, `req-${pushEvents.oneshotCreated}`)(oneshot, 1);
        expect(entry!.event).toEqual({ ...rebuilt, id: entry!.event.id, occurredAt: entry!.event.occurredAt });
      });
    });

    describe('ping', () => {
      it('answers while the store is usable', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    // Durability -------------------------------------------------------------------------

    const { reopen } = contractOptions;
    if (reopen) describeRestart(reopen);

    function describeRestart(reopen: NonNullable<PushStoreContractOptions['reopen']>): void {
      describe('after a restart', () => {
        async function reopened(from: PushStore): Promise<PushStore> {
          const again = await reopen(from);
          opened.push(again);
          return again;
        }

        it('still holds the events written before it, for the relay to publish', async () => {
          const [first, second] = await createMany(2);
          await store.revoke(orgA, deviceX, first!.id, revoked(), nextCommandId());
          await store.markPublished([(await outbox())[0]!.seq]);
          const pending = await outbox();
          expect(pending).toHaveLength(2);

          // No close(): as if the process had died right after the writes.
          const after = await reopened(store);
          expect(await outbox(after)).toEqual(pending);
          expect(await after.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
          expect(await after.get(orgA, first!.id)).toMatchObject({ state: 'revoked' });
        });

        it('still knows the commands applied before it', async () => {
          const commandId = nextCommandId();
          const input = newOneshot();
          const first = await store.create(input, created(), commandId);

          const after = await reopened(store);
          expect(await after.create(input, created(), commandId)).toEqual(first);
          expect(await after.listOutstandingForDevice(orgA, deviceX)).toEqual([first]);
          expect(await outboxEvents(after)).toHaveLength(1);
        });

        it('lets one of two stores on the same data apply a command both handle at the same moment', async () => {
          const other = await reopened(store);
          const [oneshot] = await createMany(1);
          await emptyOutbox();
          const commandId = nextCommandId();
          const [fromStore, fromOther] = await Promise.all([
            store.complete(orgA, deviceX, oneshot!.id, { site: 'done' }, completed(), commandId),
            other.complete(orgA, deviceX, oneshot!.id, { site: 'done' }, completed(), commandId),
          ]);

          expect(fromOther).toEqual(fromStore);
          expect(await outboxEvents()).toHaveLength(1);
        });

        it('keeps the oneshots, submissions and counters after close and reopen', async () => {
          const [first, second] = await createMany(2);
          const submission = await store.complete(orgA, deviceX, first!.id, { site: 'done' }, completed(), nextCommandId());
          const pending = await outbox();
          await store.close();

          const after = await reopened(store);
          expect(await outbox(after)).toEqual(pending);
          expect(await after.get(orgA, second!.id)).toEqual(second);
          expect(await after.getSubmission(orgA, first!.id)).toEqual(submission);

          const third = await after.create(newOneshot(), created(), nextCommandId());
          expect(third.id).toBeGreaterThan(second!.id);
          const events = await outbox(after);
          expect(events.slice(0, pending.length)).toEqual(pending);
          expect(events.at(-1)!.seq).toBeGreaterThan(pending.at(-1)!.seq);
          expect(payloadOf(events.at(-1)!.event)).toMatchObject({ oneshotId: third.id, outstandingCount: 2 });
        });
      });
    }
  });
}
