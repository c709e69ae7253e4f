import { randomUUID } from 'node:crypto';
import { AppError, isAppError } from '@formcast/platform';
import { pushEvents, submissionEvents, type Envelope, type ErrorCode, type OneshotEventPayload, type PushEventType } from '@formcast/contracts';
import { oneshotEvent, type OneshotEventFactory } from '../../src/domain/oneshot-events';
import { submissionReceivedEvent } from '../../src/domain/submission-events';
import { acceptedSubmission, type SubmissionLoaded } from '../../src/domain/submission-rules';
import {
  newOneshot as buildOneshot,
  releasedOneshots,
  revokedOneshot,
  revokedOneshots,
  updatedOneshot,
  type OneshotChange,
} from '../../src/domain/oneshot-lifecycle';
import type { NewOneshot, Oneshot, OneshotRequest, OneshotSummary } from '../../src/domain/records';
import type { CommandWindowOptions, OutboxEntry, PushStore } from '../../src/store';

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
      calls: Oneshot[];
    }

    function events(type: PushEventType, requestId = `req-${type}`): RecordingFactory {
      const build = oneshotEvent(type, pushToken, requestId);
      const calls: RecordingFactory['calls'] = [];
      const factory = (oneshot: Oneshot) => {
        calls.push(structuredClone(oneshot));
        return build(oneshot);
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

    const now = () => new Date().toISOString();

    let serial = 0;
    function newOneshot(extra: Partial<OneshotRequest> = {}): NewOneshot {
      serial += 1;
      return buildOneshot(
        {
          orgId: orgA,
          deviceId: deviceX,
          deviceIdentifier: 'Android_van3',
          formId: 7,
          templateNamespace: 'http://forms.example.com/inspection',
          namespace: `http://forms.example.com/inspection?uuid-${serial}`,
          name: 'Inspection',
          description: 'Weekly site inspection',
          payload: { site: 'North yard', readings: [{ value: '1.5' }, { value: '2' }], notes: {} },
          formVersion: '1.00',
          scheduledAt: null,
          location: null,
          address: null,
          geofenceRadius: null,
          ...extra,
        },
        now(),
      );
    }

    function createOne(extra: Partial<OneshotRequest> = {}): Promise<Oneshot> {
      return store.create(newOneshot(extra), created(), nextCommandId());
    }

    async function createMany(count: number, extra: Partial<OneshotRequest> = {}): Promise<Oneshot[]> {
      const made: Oneshot[] = [];
      for (let i = 0; i < count; i += 1) made.push(await createOne(extra));
      return made;
    }

    // The transitions as the handlers ask for them: the domain's decisions, run by the store.

    function update(orgId: number, deviceId: number, oneshotId: number, change: OneshotChange, event: OneshotEventFactory, commandId: string) {
      return store.change(orgId, oneshotId, (current) => updatedOneshot(current, { oneshotId, deviceId }, change, now()), event, commandId);
    }

    function revoke(orgId: number, deviceId: number, oneshotId: number, event: OneshotEventFactory, commandId: string, on = store) {
      return on.change(orgId, oneshotId, (current) => revokedOneshot(current, { oneshotId, deviceId }, now()), event, commandId);
    }

    function revokeAll(orgId: number, deviceId: number, event: OneshotEventFactory, commandId: string, limit?: number) {
      return store.changeOutstanding(orgId, deviceId, (outstanding) => revokedOneshots(outstanding, deviceId, now()), event, commandId, limit);
    }

    /** The device and form of the suite's submissions: form 7, which every fixture oneshot is a copy of. */
    const submitter = (orgId: number, deviceId: number) => ({
      device: { id: deviceId, orgId, identifier: 'Android_van3', owner: 'Ada', groupIds: [1] },
      form: { id: 7, namespace: 'http://forms.example.com/inspection', name: 'Inspection', version: '1.00', groupId: 1 },
    });

    /** A submission completing the oneshot, as the handlers ask for it. */
    function complete(
      orgId: number,
      deviceId: number,
      oneshotId: number,
      answers: Record<string, unknown>,
      event: OneshotEventFactory,
      commandId: string,
      on = store,
    ) {
      const request = { ...submitter(orgId, deviceId), oneshotId, clientSubmissionId: null, answers };
      return on.submit(
        { orgId, deviceId, oneshotId, clientSubmissionId: null },
        (loaded) => acceptedSubmission(loaded, request, now()),
        { completed: event, received: submissionReceivedEvent('req-received') },
        commandId,
      );
    }

    /** The submission that completed the oneshot, if any. */
    const submissionOf = (oneshotId: number, orgId = orgA, from = store) => from.findSubmission(orgId, { oneshotId });

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
      await revoke(orgA, deviceX, revokedOne.id, revoked(), nextCommandId());
      await complete(orgA, deviceX, completedOne.id, { site: 'done' }, completed(), nextCommandId());
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

      it('writes exactly one event, the one the factory built', async () => {
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
          },
        });
        expect(factory.calls).toEqual([oneshot]);
      });

      it('writes nothing when the event cannot be built', async () => {
        await expect(store.create(newOneshot(), failingFactory, nextCommandId())).rejects.toThrow('the event could not be built');
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([]);
        expect(await outbox()).toEqual([]);
        const next = await createOne();
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([next]);
      });
    });

    // createKeyed ------------------------------------------------------------------------

    describe('createKeyed (an Idempotency-Key recorded with the create)', () => {
      const t0 = new Date('2030-01-01T00:00:00.000Z');
      const at = (ms: number) => new Date(t0.getTime() + ms);
      const minute = 60_000;
      const day = 24 * 60 * minute;
      /** The answer a handler keeps: here, a view naming the oneshot. */
      const answer = (oneshot: Oneshot) => ({ id: oneshot.id, name: oneshot.name });
      const keyOf = (key: string, fingerprint = 'fp', now = t0, orgId = orgA) => ({ orgId, key, fingerprint, commandId: nextCommandId(), now, answer });

      it('creates the oneshot and its event, and keeps the answer under the key', async () => {
        const factory = created();
        const outcome = await store.createKeyed(newOneshot(), factory, keyOf('k'));

        if (!('created' in outcome)) throw new Error(`expected a create, got ${JSON.stringify(outcome)}`);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([outcome.created]);
        expect(factory.calls).toEqual([outcome.created]);
        expect(await outboxEvents()).toHaveLength(1);
        await expect(store.keys.peek(orgA, 'k', 'fp', nextCommandId(), at(1000))).resolves.toEqual({
          kind: 'replay',
          reply: { ok: true, value: answer(outcome.created) },
        });
      });

      it('creates nothing for the same request again: it finds the first answer', async () => {
        const first = await store.createKeyed(newOneshot(), created(), keyOf('k'));
        await emptyOutbox();
        const factory = created();
        const again = await store.createKeyed(newOneshot(), factory, keyOf('k', 'fp', at(1000)));

        if (!('created' in first)) throw new Error('expected a create');
        expect(again).toEqual({ found: { kind: 'replay', reply: { ok: true, value: answer(first.created) } } });
        expect(factory.calls).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([first.created]);
        expect(await outbox()).toEqual([]);
      });

      it('creates nothing for the same command delivered again, also at the same moment', async () => {
        const key = keyOf('k');
        const outcomes = await Promise.all([1, 2].map(() => store.createKeyed(newOneshot(), created(), key)));
        const again = await store.createKeyed(newOneshot(), created(), { ...key, now: at(1000) });

        const made = outcomes.flatMap((outcome) => ('created' in outcome ? [outcome.created] : []));
        expect(made).toHaveLength(1);
        expect(again).toEqual({ found: { kind: 'replay', reply: { ok: true, value: answer(made[0]!) } } });
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual(made);
        expect(await outboxEvents()).toHaveLength(1);
      });

      it('creates nothing for another request with the key: mismatch', async () => {
        await store.createKeyed(newOneshot(), created(), keyOf('k', 'fp-first'));
        await expect(store.createKeyed(newOneshot(), created(), keyOf('k', 'fp-other', at(10)))).resolves.toEqual({ found: { kind: 'mismatch' } });
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toHaveLength(1);
        expect(await outboxEvents()).toHaveLength(1);
      });

      it('keeps keys apart per organization', async () => {
        const ours = await store.createKeyed(newOneshot(), created(), keyOf('k'));
        const theirs = await store.createKeyed(newOneshot({ orgId: orgB }), created(), keyOf('k', 'other fp', t0, orgB));
        expect('created' in ours && 'created' in theirs).toBe(true);
        expect(await store.listOutstandingForDevice(orgB, deviceX)).toHaveLength(1);
      });

      it('of creates with one key at once, makes one; the others find its answer', async () => {
        const outcomes = await Promise.all([1, 2, 3, 4].map(() => store.createKeyed(newOneshot(), created(), keyOf('race'))));

        const made = outcomes.flatMap((outcome) => ('created' in outcome ? [outcome.created] : []));
        expect(made).toHaveLength(1);
        const found = outcomes.filter((outcome) => 'found' in outcome);
        expect(found).toEqual(Array(3).fill({ found: { kind: 'replay', reply: { ok: true, value: answer(made[0]!) } } }));
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual(made);
        expect(await outboxEvents()).toHaveLength(1);
      });

      it('writes neither the oneshot nor the key when the create fails', async () => {
        await expect(store.createKeyed(newOneshot(), failingFactory, keyOf('k'))).rejects.toThrow('the event could not be built');
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([]);
        await expect(store.keys.peek(orgA, 'k', 'fp', nextCommandId(), at(10))).resolves.toEqual({ kind: 'new' });
      });

      it('takes a key 24 hours old as new', async () => {
        await store.createKeyed(newOneshot(), created(), keyOf('k', 'fp-old'));
        const renewed = await store.createKeyed(newOneshot(), created(), keyOf('k', 'fp-new', at(day)));
        expect('created' in renewed).toBe(true);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toHaveLength(2);
      });

      it("takes over a claim its process left, under the claim's command id: a create that command made is not made again", async () => {
        const firstCommand = nextCommandId();
        await store.keys.claim(orgA, 'k', 'fp', firstCommand, t0);
        const madeBeforeTheCrash = await store.create(newOneshot(), created(), firstCommand);

        await expect(store.createKeyed(newOneshot(), created(), keyOf('k', 'fp', at(minute - 1)))).resolves.toEqual({ found: { kind: 'running' } });
        const outcome = await store.createKeyed(newOneshot(), created(), keyOf('k', 'fp', at(minute)));

        expect(outcome).toEqual({ created: madeBeforeTheCrash });
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([madeBeforeTheCrash]);
        await expect(store.keys.peek(orgA, 'k', 'fp', nextCommandId(), at(2 * minute))).resolves.toEqual({
          kind: 'replay',
          reply: { ok: true, value: answer(madeBeforeTheCrash) },
        });
      });
    });

    // update -----------------------------------------------------------------------------

    describe('update', () => {
      it('replaces the payload, name and description, keeping the rest', async () => {
        const before = await createOne();
        const after = await update(
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
        await update(orgA, deviceX, before.id, { payload: { site: 'A' }, name: 'Renamed' }, updated(), nextCommandId());
        await update(orgA, deviceX, before.id, { payload: { site: 'B' }, description: 'Described' }, updated(), nextCommandId());
        const after = await update(
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
        const after = await update(orgA, deviceX, before.id, { payload: { site: 'A' }, description: '' }, updated(), nextCommandId());
        expect(after.description).toBe('');
        expect(await store.get(orgA, before.id)).toEqual(after);
      });

      it('writes one updated event, of the oneshot as updated', async () => {
        const [first] = await createMany(2);
        await emptyOutbox();
        const factory = updated();
        const after = await update(orgA, deviceX, first!.id, { payload: { site: 'A' }, name: 'New name' }, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written).toHaveLength(1);
        expect(written[0]).toMatchObject({
          type: pushEvents.oneshotUpdated,
          orgId: orgA,
          payload: { oneshotId: first!.id, name: 'New name' },
        });
        expect(factory.calls).toEqual([after]);
      });

      it('answers not_found for a oneshot that is not outstanding on that device, changing nothing', async () => {
        const { outstanding, revokedOne, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const before = await snapshot();
        const ended = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];
        const change = { payload: { site: 'changed' }, name: 'changed', description: 'changed' };

        await expectAppError(update(orgA, deviceX, unknownId, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(update(orgB, deviceX, outstanding.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(update(orgA, deviceX, inOrgB.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(update(orgA, deviceY, outstanding.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(update(orgA, deviceX, onDeviceY.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(update(orgA, deviceX, revokedOne.id, change, updated(), nextCommandId()), 'not_found');
        await expectAppError(update(orgA, deviceX, completedOne.id, change, updated(), nextCommandId()), 'not_found');

        expect(await snapshot()).toEqual(before);
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(ended);
        expect(await store.get(orgB, inOrgB.id)).toEqual(inOrgB);
      });

      it('changes nothing when the event cannot be built', async () => {
        const before = await createOne();
        await emptyOutbox();
        await expect(
          update(orgA, deviceX, before.id, { payload: { site: 'changed' }, name: 'changed' }, failingFactory, nextCommandId()),
        ).rejects.toThrow('the event could not be built');
        expect(await store.get(orgA, before.id)).toEqual(before);
        expect(await outbox()).toEqual([]);
      });
    });

    // revoke -----------------------------------------------------------------------------

    describe('revoke', () => {
      it('ends the oneshot as revoked, gone from the listings but still readable', async () => {
        const [first, second] = await createMany(2);
        const after = await revoke(orgA, deviceX, first!.id, revoked(), nextCommandId());

        expect(after).toEqual({ ...first, state: 'revoked', updatedAt: isoTimestamp });
        expect(await store.get(orgA, first!.id)).toEqual(after);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
        expect(await collect(store.streamOutstandingForOrganization(orgA))).toEqual(summaries([second!]));
        expect(await submissionOf(first!.id, orgA)).toBeNull();
      });

      it('writes one revoked event, of the oneshot as revoked', async () => {
        const [first] = await createMany(3);
        await emptyOutbox();
        const factory = revoked();
        const after = await revoke(orgA, deviceX, first!.id, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written).toHaveLength(1);
        expect(written[0]).toMatchObject({
          type: pushEvents.oneshotRevoked,
          payload: { oneshotId: first!.id, deviceId: deviceX },
        });
        expect(factory.calls).toEqual([after]);
      });

      it('answers not_found for a oneshot that is not outstanding on that device, changing nothing', async () => {
        const { outstanding, revokedOne, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const before = await snapshot();
        const ended = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];

        await expectAppError(revoke(orgA, deviceX, unknownId, revoked(), nextCommandId()), 'not_found');
        await expectAppError(revoke(orgB, deviceX, outstanding.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(revoke(orgA, deviceX, inOrgB.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(revoke(orgA, deviceY, outstanding.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(revoke(orgA, deviceX, onDeviceY.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(revoke(orgA, deviceX, revokedOne.id, revoked(), nextCommandId()), 'not_found');
        await expectAppError(revoke(orgA, deviceX, completedOne.id, revoked(), nextCommandId()), 'not_found');

        expect(await snapshot()).toEqual(before);
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(ended);
        const submission = await submissionOf(completedOne.id, orgA);
        expect(submission).not.toBeNull();
        expect(await store.getSubmission(orgA, submission!.id)).toEqual(submission);
        expect(await store.getSubmission(orgB, submission!.id)).toBeNull();
        expect(await store.getSubmission(orgA, unknownId)).toBeNull();
      });

      it('changes nothing when the event cannot be built', async () => {
        const before = await createOne();
        await emptyOutbox();
        await expect(revoke(orgA, deviceX, before.id, failingFactory, nextCommandId())).rejects.toThrow(
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

        const result = await revokeAll(orgA, deviceX, revoked(), nextCommandId());

        const expected = [outstanding, ...more].map((oneshot) => ({ ...oneshot, state: 'revoked', updatedAt: isoTimestamp }));
        expect(result).toEqual(expected);
        for (const oneshot of result) expect(await store.get(orgA, oneshot.id)).toEqual(oneshot);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([]);
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(endedBefore);
        expect(await store.listOutstandingForDevice(orgA, deviceY)).toEqual([onDeviceY]);
        expect(await store.listOutstandingForDevice(orgB, deviceX)).toEqual([inOrgB]);
      });

      it('writes one revoked event per oneshot, oldest first', async () => {
        const made = await createMany(3);
        await createOne({ deviceId: deviceY });
        await emptyOutbox();
        const factory = revoked();

        const result = await revokeAll(orgA, deviceX, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written.map((event) => [event.type, payloadOf(event).oneshotId])).toEqual([
          [pushEvents.oneshotRevoked, made[0]!.id],
          [pushEvents.oneshotRevoked, made[1]!.id],
          [pushEvents.oneshotRevoked, made[2]!.id],
        ]);
        expect(factory.calls).toEqual(result);
      });

      it('answers an empty list and writes nothing when the device has none outstanding', async () => {
        await mixedStates();
        await emptyOutbox();
        const before = await snapshot();
        expect(await revokeAll(orgA, deviceX + 100, revoked(), nextCommandId())).toEqual([]);
        expect(await revokeAll(orgB, deviceY, revoked(), nextCommandId())).toEqual([]);
        await revokeAll(orgA, deviceX, revoked(), nextCommandId());
        await emptyOutbox();
        expect(await revokeAll(orgA, deviceX, revoked(), nextCommandId())).toEqual([]);
        expect(await outbox()).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceY)).toEqual(before.deviceY);
      });

      it('with a limit: revokes the oldest that many, the rest stay outstanding for the next', async () => {
        const made = await createMany(5);
        const inOrgB = await createOne({ orgId: orgB });
        await emptyOutbox();

        const first = await revokeAll(orgA, deviceX, revoked(), nextCommandId(), 2);
        expect(first.map((oneshot) => oneshot.id)).toEqual(ids(made.slice(0, 2)));
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual(made.slice(2));
        const second = await revokeAll(orgA, deviceX, revoked(), nextCommandId(), 2);
        const third = await revokeAll(orgA, deviceX, revoked(), nextCommandId(), 2);
        expect([second, third].map((chunk) => chunk.map((oneshot) => oneshot.id))).toEqual([ids(made.slice(2, 4)), ids(made.slice(4))]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([]);
        expect(await store.listOutstandingForDevice(orgB, deviceX)).toEqual([inOrgB]);
        expect((await outboxEvents()).map((event) => payloadOf(event).oneshotId)).toEqual(ids(made));
      });

      it('revokes none when one event cannot be built', async () => {
        const made = await createMany(3);
        await emptyOutbox();
        let calls = 0;
        const failsOnSecond: OneshotEventFactory = (oneshot) => {
          calls += 1;
          if (calls === 2) throw new Error('the event could not be built');
          return revoked()(oneshot);
        };
        await expect(revokeAll(orgA, deviceX, failsOnSecond, nextCommandId())).rejects.toThrow('the event could not be built');
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual(made);
        expect(await outbox()).toEqual([]);
      });
    });

    // complete ---------------------------------------------------------------------------

    describe('complete', () => {
      const answers = { site: 'North yard', readings: [{ value: '3' }], photo: { name: 'p.jpg', size: 12 }, empty: {} };

      it('ends the oneshot as completed and keeps the submission', async () => {
        const [first, second] = await createMany(2);
        const submission = await complete(orgA, deviceX, first!.id, answers, completed(), nextCommandId());

        expect(submission).toEqual({
          id: expect.any(Number),
          orgId: orgA,
          deviceId: deviceX,
          deviceIdentifier: 'Android_van3',
          deviceOwner: 'Ada',
          formId: 7,
          formNamespace: 'http://forms.example.com/inspection',
          formName: 'Inspection',
          formVersion: '1.00',
          oneshotId: first!.id,
          clientSubmissionId: null,
          answers,
          submittedAt: isoTimestamp,
          receivedAt: isoTimestamp,
        });
        expect(await submissionOf(first!.id, orgA)).toEqual(submission);
        expect(await store.getSubmission(orgA, submission.id)).toEqual(submission);
        expect(await store.get(orgA, first!.id)).toEqual({ ...first, state: 'completed', updatedAt: isoTimestamp });
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
        expect(await collect(store.streamOutstandingForOrganization(orgA))).toEqual(summaries([second!]));
      });

      it('writes the completed event, of the oneshot as completed, then the submission’s', async () => {
        const [first] = await createMany(2);
        await emptyOutbox();
        const factory = completed();
        const submission = await complete(orgA, deviceX, first!.id, answers, factory, nextCommandId());

        const written = await outboxEvents();
        expect(written).toHaveLength(2);
        expect(written[0]).toMatchObject({
          type: pushEvents.oneshotCompleted,
          payload: { oneshotId: first!.id },
        });
        expect(written[1]).toMatchObject({
          type: submissionEvents.submissionReceived,
          payload: { submissionId: submission.id, oneshotId: first!.id, answers },
        });
        expect(factory.calls).toEqual([{ ...first, state: 'completed', updatedAt: isoTimestamp }]);
      });

      it('answers conflict for a oneshot of this device that already ended, keeping the first submission', async () => {
        const { revokedOne, completedOne } = await mixedStates();
        const before = await snapshot();
        const firstSubmission = await submissionOf(completedOne.id, orgA);
        const ended = [await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)];

        await expectAppError(complete(orgA, deviceX, revokedOne.id, answers, completed(), nextCommandId()), 'conflict');
        await expectAppError(complete(orgA, deviceX, completedOne.id, answers, completed(), nextCommandId()), 'conflict');

        expect(await snapshot()).toEqual(before);
        expect(await submissionOf(completedOne.id, orgA)).toEqual(firstSubmission);
        expect(await submissionOf(revokedOne.id, orgA)).toBeNull();
        expect([await store.get(orgA, revokedOne.id), await store.get(orgA, completedOne.id)]).toEqual(ended);
      });

      it("answers not_found for an unknown, another organization's or another device's oneshot", async () => {
        const { outstanding, completedOne, onDeviceY, inOrgB } = await mixedStates();
        const before = await snapshot();

        await expectAppError(complete(orgA, deviceX, unknownId, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(complete(orgA, deviceX, onDeviceY.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(complete(orgA, deviceY, outstanding.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(complete(orgA, deviceY, completedOne.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(complete(orgA, deviceX, inOrgB.id, answers, completed(), nextCommandId()), 'not_found');
        await expectAppError(complete(orgB, deviceX, outstanding.id, answers, completed(), nextCommandId()), 'not_found');

        expect(await snapshot()).toEqual(before);
        for (const oneshot of [outstanding, onDeviceY]) expect(await submissionOf(oneshot.id, orgA)).toBeNull();
        expect(await submissionOf(inOrgB.id, orgB)).toBeNull();
      });

      it('keeps no submission when the event cannot be built', async () => {
        const before = await createOne();
        await emptyOutbox();
        await expect(complete(orgA, deviceX, before.id, answers, failingFactory, nextCommandId())).rejects.toThrow(
          'the event could not be built',
        );
        expect(await store.get(orgA, before.id)).toEqual(before);
        expect(await submissionOf(before.id, orgA)).toBeNull();
        expect(await outbox()).toEqual([]);
        // and it can still be completed
        await complete(orgA, deviceX, before.id, answers, completed(), nextCommandId());
        expect(await submissionOf(before.id, orgA)).toMatchObject({ answers });
      });
    });

    // The transition handed to a write -------------------------------------------------

    describe('the transition handed to a write', () => {
      /** A transition that records what it was handed and refuses it. */
      function refusing() {
        const handed: Array<Oneshot | null> = [];
        const transition = (current: Oneshot | null): never => {
          handed.push(current);
          throw new AppError('not_found', 'refused by the transition');
        };
        return { handed, transition };
      }

      it("change: is handed the oneshot as stored, in any state, or null when unknown or another organization's", async () => {
        const { outstanding, completedOne, inOrgB } = await mixedStates();
        const { handed, transition } = refusing();
        const asked: Array<[number, number]> = [
          [orgA, outstanding.id],
          [orgA, completedOne.id],
          [orgA, unknownId],
          [orgA, inOrgB.id],
          [orgB, outstanding.id],
        ];
        for (const [orgId, id] of asked) await expectAppError(store.change(orgId, id, transition, updated(), nextCommandId()), 'not_found');

        expect(handed).toEqual([outstanding, await store.get(orgA, completedOne.id), null, null, null]);
      });

      it('submit: is handed the oneshot named as stored, or null', async () => {
        const { completedOne, inOrgB } = await mixedStates();
        const handed: SubmissionLoaded[] = [];
        const transition = (loaded: SubmissionLoaded): never => {
          handed.push(loaded);
          throw new AppError('not_found', 'refused by the transition');
        };
        const events = { completed: completed(), received: submissionReceivedEvent('req') };
        const keys = { orgId: orgA, deviceId: deviceX, clientSubmissionId: null };
        await expectAppError(store.submit({ ...keys, oneshotId: completedOne.id }, transition, events, nextCommandId()), 'not_found');
        await expectAppError(store.submit({ ...keys, oneshotId: inOrgB.id }, transition, events, nextCommandId()), 'not_found');

        expect(handed).toEqual([
          { oneshot: await store.get(orgA, completedOne.id), earlier: null },
          { oneshot: null, earlier: null },
        ]);
      });

      it("changeOutstanding: is handed the device's outstanding oneshots in its organization, ascending by id, and saves those it returns", async () => {
        const { outstanding } = await mixedStates();
        const more = await createMany(2);
        await emptyOutbox();
        let handed: Oneshot[] = [];
        const factory = updated();
        const result = await store.changeOutstanding(
          orgA,
          deviceX,
          (list) => {
            handed = list;
            return list.slice(1).map((oneshot) => ({ ...oneshot, name: `${oneshot.name} (renamed)`, updatedAt: now() }));
          },
          factory,
          nextCommandId(),
        );

        expect(handed).toEqual([outstanding, ...more]);
        expect(result).toEqual(more.map((oneshot) => ({ ...oneshot, name: `${oneshot.name} (renamed)`, updatedAt: isoTimestamp })));
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([outstanding, ...result]);
        expect(factory.calls).toEqual(result);
        expect((await outboxEvents()).map((event) => payloadOf(event).oneshotId)).toEqual(ids(more));
      });

      it('change: saves what the transition returns, keeping the payload it did not replace', async () => {
        const before = await createOne();
        const renamed = await store.change(orgA, before.id, (current) => ({ ...current!, name: 'Renamed', updatedAt: now() }), updated(), nextCommandId());

        expect(renamed).toEqual({ ...before, name: 'Renamed', updatedAt: isoTimestamp });
        expect(await store.get(orgA, before.id)).toEqual(renamed);
      });

      it('refuses a transition that changes what only create writes, or returns a oneshot it was not handed, saving nothing', async () => {
        const [before, other] = await createMany(2);
        await emptyOutbox();

        await expect(
          store.change(orgA, before!.id, (current) => ({ ...current!, deviceId: deviceY }), updated(), nextCommandId()),
        ).rejects.toThrow('which only create writes');
        await expect(store.change(orgA, before!.id, () => ({ ...other!, name: 'x' }), updated(), nextCommandId())).rejects.toThrow(
          'was not loaded',
        );
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([before, other]);
        expect(await outbox()).toEqual([]);
      });

      it('is not run again for a command already applied', async () => {
        const oneshot = await createOne();
        const commandId = nextCommandId();
        const first = await revoke(orgA, deviceX, oneshot.id, revoked(), commandId);
        let runs = 0;
        const again = await store.change(
          orgA,
          oneshot.id,
          (current) => {
            runs += 1;
            return current!;
          },
          revoked(),
          commandId,
        );

        expect(again).toEqual(first);
        expect(runs).toBe(0);
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
        expect((await outboxEvents()).map((event) => payloadOf(event).oneshotId)).toEqual([first.id, second.id]);
      });

      it('update: returns the same oneshot without changing it again or writing a second event', async () => {
        const before = await createOne();
        await emptyOutbox();
        const commandId = nextCommandId();
        const change = { payload: { site: 'South yard' }, name: 'Re-inspection' };
        const first = await update(orgA, deviceX, before.id, change, updated(), commandId);
        const factory = updated();

        expect(await update(orgA, deviceX, before.id, change, factory, commandId)).toEqual(first);
        expect(factory.calls).toEqual([]);
        expect(await store.get(orgA, before.id)).toEqual(first);
        expect(await outboxEvents()).toHaveLength(1);
      });

      it('revoke: returns the revoked oneshot, not not_found, without a second event', async () => {
        const [first, second] = await createMany(2);
        await emptyOutbox();
        const commandId = nextCommandId();
        const revokedFirst = await revoke(orgA, deviceX, first!.id, revoked(), commandId);

        expect(await revoke(orgA, deviceX, first!.id, revoked(), commandId)).toEqual(revokedFirst);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([second]);
        expect((await outboxEvents()).map((event) => [event.type, payloadOf(event).oneshotId])).toEqual([
          [pushEvents.oneshotRevoked, first!.id],
        ]);
        // Another command revoking it is refused as before.
        await expectAppError(revoke(orgA, deviceX, first!.id, revoked(), nextCommandId()), 'not_found');
      });

      it('revokeAll: returns the oneshots it revoked the first time, leaving one created since outstanding', async () => {
        const made = await createMany(2);
        await emptyOutbox();
        const commandId = nextCommandId();
        const first = await revokeAll(orgA, deviceX, revoked(), commandId);
        const createdSince = await createOne();

        expect(await revokeAll(orgA, deviceX, revoked(), commandId)).toEqual(first);
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
        expect(await revokeAll(orgA, deviceX, revoked(), commandId)).toEqual([]);
        const createdSince = await createOne();

        expect(await revokeAll(orgA, deviceX, revoked(), commandId)).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([createdSince]);
      });

      it('complete: returns the same submission, not conflict, keeping the first answers and its events', async () => {
        const oneshot = await createOne();
        await emptyOutbox();
        const commandId = nextCommandId();
        const first = await complete(orgA, deviceX, oneshot.id, { site: 'first' }, completed(), commandId);

        expect(await complete(orgA, deviceX, oneshot.id, { site: 'first' }, completed(), commandId)).toEqual(first);
        expect(await submissionOf(oneshot.id, orgA)).toEqual(first);
        expect((await outboxEvents()).map((event) => event.type)).toEqual([pushEvents.oneshotCompleted, submissionEvents.submissionReceived]);
        // Another command submitting it conflicts as before.
        await expectAppError(complete(orgA, deviceX, oneshot.id, { site: 'second' }, completed(), nextCommandId()), 'conflict');
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

    describe('get, getSubmission and findSubmission', () => {
      it("answer null for an unknown oneshot or submission, or another organization's", async () => {
        const { completedOne, inOrgB } = await mixedStates();
        expect(await store.get(orgA, unknownId)).toBeNull();
        expect(await store.get(orgA, inOrgB.id)).toBeNull();
        expect(await store.get(orgB, completedOne.id)).toBeNull();
        expect(await submissionOf(unknownId, orgA)).toBeNull();
        expect(await submissionOf(completedOne.id, orgB)).toBeNull();
        expect(await submissionOf(completedOne.id, orgA)).not.toBeNull();
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
        await revoke(orgA, deviceX, ended[0]!.id, revoked(), nextCommandId());
        await complete(orgA, deviceX, ended[1]!.id, {}, completed(), nextCommandId());

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
            await revoke(orgA, deviceX, made[4]!.id, revoked(), nextCommandId());
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
        await update(orgA, deviceX, first!.id, { payload: {} }, updated(), nextCommandId());
        await revoke(orgA, deviceX, second!.id, revoked(), nextCommandId());
        await complete(orgA, deviceX, first!.id, {}, completed(), nextCommandId());

        const all = await outbox();
        expect(all.map((entry) => [entry.event.type, payloadOf(entry.event).oneshotId])).toEqual([
          [pushEvents.oneshotCreated, first!.id],
          [pushEvents.oneshotCreated, second!.id],
          [pushEvents.oneshotUpdated, first!.id],
          [pushEvents.oneshotRevoked, second!.id],
          [pushEvents.oneshotCompleted, first!.id],
          [submissionEvents.submissionReceived, first!.id],
        ]);
        const seqs = all.map((entry) => entry.seq);
        for (const seq of seqs) expect(Number.isInteger(seq)).toBe(true);
        expect(new Set(seqs).size).toBe(seqs.length);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

        expect(await store.unpublishedEvents(2)).toEqual(all.slice(0, 2));
        expect(await store.unpublishedEvents(1)).toEqual(all.slice(0, 1));
        expect(await store.unpublishedEvents(0)).toEqual([]);
      });

      it("answers fairly: another organization's newer events in the first batch, beside the oldest of a backlog, each organization's in order", async () => {
        await createMany(30);
        await createMany(2, { orgId: orgB });
        const all = await outbox();
        expect(all.map((entry) => entry.event.orgId)).toEqual([...Array<number>(30).fill(orgA), orgB, orgB]);

        const batch = await store.unpublishedEvents(10);
        expect(batch).toHaveLength(10);
        expect(batch.filter((entry) => entry.event.orgId === orgB)).toEqual(all.slice(30));
        expect(batch.filter((entry) => entry.event.orgId === orgA)).toEqual(all.slice(0, 8));
        expect(batch.map((entry) => entry.seq)).toEqual([...batch.map((entry) => entry.seq)].sort((a, b) => a - b));
        // A batch shorter than asked for is all there is: every organization's share, filled up with the oldest of the rest.
        expect(await store.unpublishedEvents(1000)).toEqual(all);
        // One organization waiting: its oldest, as before.
        await store.markPublished(all.slice(30).map((entry) => entry.seq));
        expect(await store.unpublishedEvents(5)).toEqual(all.slice(0, 5));
      });

      it('gives each organization one event when a batch is smaller than their number, the lowest organizations first', async () => {
        await createMany(3);
        await createOne({ orgId: 3 });
        await createOne({ orgId: orgB });
        const all = await outbox();
        expect(await store.unpublishedEvents(2)).toEqual([all[0], all[4]]);
        expect(await store.unpublishedEvents(3)).toEqual([all[0], all[3], all[4]]);
      });

      it('tells the outbox\'s size and when its oldest event occurred', async () => {
        expect(await store.outboxBacklog()).toEqual({ count: 0, oldestOccurredAt: null });
        await createMany(3);
        const all = await outbox();
        expect(await store.outboxBacklog()).toEqual({ count: 3, oldestOccurredAt: all[0]!.event.occurredAt });

        await store.markPublished([all[0]!.seq]);
        expect(await store.outboxBacklog()).toEqual({ count: 2, oldestOccurredAt: all[1]!.event.occurredAt });
        await emptyOutbox();
        expect(await store.outboxBacklog()).toEqual({ count: 0, oldestOccurredAt: null });
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
        const rebuilt = oneshotEvent(pushEvents.oneshotCreated, pushToken, `req-${pushEvents.oneshotCreated}`)(oneshot);
        expect(entry!.event).toEqual({ ...rebuilt, id: entry!.event.id, occurredAt: entry!.event.occurredAt });
      });
    });

    describe('ping', () => {
      it('answers while the store is usable', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    // Scheduled dispatches and the v3 listings ----------------------------------------

    describe('scheduled dispatches', () => {
      const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
      const inTwoHours = () => new Date(Date.now() + 7_200_000).toISOString();
      const scheduled = (at = inAnHour(), extra: Partial<OneshotRequest> = {}) => createOne({ scheduledAt: at, ...extra });
      const withoutPayload = ({ payload: _payload, ...dispatch }: Oneshot) => dispatch;

      /** The release as the release loop asks for it: what listDue found, released at `at`. */
      function release(at: string, on = store) {
        return on.listDue(at, 100).then((due) =>
          on.release(
            due.map((d) => d.id),
            (loaded) => releasedOneshots(loaded, at),
            created(),
          ),
        );
      }

      it('keeps every dispatch field as created, readable with get', async () => {
        const at = inAnHour();
        const dispatch = await createOne({ scheduledAt: at, location: 'lat=35.77, long=-78.63', address: 'Raleigh', geofenceRadius: 150.5, formVersion: '1.02' });
        expect(dispatch).toMatchObject({ scheduledAt: at, releasedAt: null, location: 'lat=35.77, long=-78.63', address: 'Raleigh', geofenceRadius: 150.5, formVersion: '1.02' });
        expect(await store.get(orgA, dispatch.id)).toEqual(dispatch);
      });

      it('a dispatch scheduled for later writes no event and is out of the legacy listings until released', async () => {
        const now = await createOne();
        await emptyOutbox();
        const later = await scheduled();
        expect(await outboxEvents()).toEqual([]);
        expect(await store.listOutstandingForDevice(orgA, deviceX)).toEqual([now]);
        expect(ids(await collect(store.streamOutstandingForOrganization(orgA)))).toEqual([now.id]);
        expect(await store.get(orgA, later.id)).toEqual(later);
      });

      it('the v3 listings show outstanding dispatches, scheduled ones included, a page at a time with the total, no payloads', async () => {
        const [first, second] = await createMany(2);
        const waiting = await scheduled();
        const onY = await createOne({ deviceId: deviceY });
        const gone = await createOne();
        await revoke(orgA, deviceX, gone.id, revoked(), nextCommandId());
        await createOne({ orgId: orgB });

        expect(await store.listDispatches(orgA, null, 0, 100)).toEqual({ total: 4, dispatches: [first!, second!, waiting, onY].map(withoutPayload) });
        expect(await store.listDispatches(orgA, deviceX, 0, 100)).toEqual({ total: 3, dispatches: [first!, second!, waiting].map(withoutPayload) });
        expect(await store.listDispatches(orgA, deviceX, 1, 1)).toEqual({ total: 3, dispatches: [withoutPayload(second!)] });
        expect(await store.listDispatches(orgA, deviceX, 3, 1)).toEqual({ total: 3, dispatches: [] });
        expect(await store.listDispatches(orgB, deviceY, 0, 100)).toEqual({ total: 0, dispatches: [] });
        // The create's cap check: the same count, without the page.
        expect(await store.countOutstanding(orgA, deviceX)).toBe(3);
        expect(await store.countOutstanding(orgA, deviceY)).toBe(1);
        expect(await store.countOutstanding(orgB, deviceY)).toBe(0);
      });

      it('devicesWithOutstanding: the devices with outstanding dispatches (scheduled ones too), once each, by organization then device, a page at a time', async () => {
        await createMany(3);
        await createOne({ deviceId: deviceY });
        await scheduled(inAnHour(), { orgId: orgB });
        const ended = await createOne({ orgId: orgB, deviceId: deviceY });
        await revoke(orgB, deviceY, ended.id, revoked(), nextCommandId());
        const walked: Array<{ orgId: number; deviceId: number }> = [];
        for (let after: { orgId: number; deviceId: number } | undefined, pages = 0; pages < 10; pages += 1) {
          const page = await store.devicesWithOutstanding(after, 2);
          expect(page.length).toBeLessThanOrEqual(2);
          if (page.length === 0) break;
          walked.push(...page);
          after = page[page.length - 1];
        }
        const expected = [
          { orgId: orgA, deviceId: deviceX },
          { orgId: orgA, deviceId: deviceY },
          { orgId: orgB, deviceId: deviceX },
        ].sort((a, b) => a.orgId - b.orgId || a.deviceId - b.deviceId);
        expect(walked).toEqual(expected);
        expect(await store.devicesWithOutstanding(expected[0], 10)).toEqual(expected.slice(1));
      });

      it("devicesWithOutstandingOfForm: the devices with the form's outstanding dispatches (scheduled ones too), ascending, of its organization only", async () => {
        await createOne({ deviceId: deviceY });
        await createOne();
        await scheduled(inAnHour(), { deviceId: 12 });
        await createOne({ deviceId: 13, formId: 8 });
        await createOne({ orgId: orgB, deviceId: 14 });
        const ended = await createOne({ deviceId: 15 });
        await revoke(orgA, 15, ended.id, revoked(), nextCommandId());
        expect(await store.devicesWithOutstandingOfForm(orgA, 7)).toEqual([deviceX, deviceY, 12]);
        expect(await store.devicesWithOutstandingOfForm(orgA, 8)).toEqual([13]);
        expect(await store.devicesWithOutstandingOfForm(orgB, 7)).toEqual([14]);
        expect(await store.devicesWithOutstandingOfForm(orgB, 8)).toEqual([]);
      });

      it('listDue: the unreleased outstanding ones whose time has come, any organization, earliest first', async () => {
        const soon = new Date(Date.now() + 60_000).toISOString();
        const latest = await scheduled(inTwoHours());
        const earliest = await scheduled(soon, { orgId: orgB });
        const middle = await scheduled(inAnHour());
        const revokedOne = await scheduled(soon);
        await revoke(orgA, deviceX, revokedOne.id, revoked(), nextCommandId());
        await createOne();

        expect(await store.listDue(new Date().toISOString(), 100)).toEqual([]);
        expect(ids(await store.listDue(inTwoHours(), 100))).toEqual([earliest.id, middle.id, latest.id]);
        expect(ids(await store.listDue(inTwoHours(), 2))).toEqual([earliest.id, middle.id]);
        expect(await store.listDue(latest.scheduledAt!, 100)).toContainEqual(withoutPayload(latest));
      });

      it('release: saves each due one released with its created event, and it joins the legacy listings', async () => {
        const earlier = await createOne();
        const waiting = await scheduled();
        await emptyOutbox();
        const at = inTwoHours();

        const released = await release(at);
        expect(released).toEqual([{ ...waiting, releasedAt: at }]);
        expect(await store.get(orgA, waiting.id)).toEqual({ ...waiting, releasedAt: at });
        const events = await outboxEvents();
        expect(events.map((e) => e.type)).toEqual([pushEvents.oneshotCreated]);
        expect(payloadOf(events[0])).toMatchObject({ oneshotId: waiting.id, deviceId: deviceX, pushToken });
        expect(ids(await store.listOutstandingForDevice(orgA, deviceX))).toEqual([earlier.id, waiting.id]);
        expect(await store.listDue(at, 100)).toEqual([]);
      });

      it('release: releases nothing twice, nor one revoked or not yet due, whatever ids it is handed', async () => {
        const waiting = await scheduled();
        const notYet = await scheduled(inTwoHours());
        const revokedOne = await scheduled();
        await revoke(orgA, deviceX, revokedOne.id, revoked(), nextCommandId());
        await emptyOutbox();
        const at = new Date(Date.now() + 5_400_000).toISOString();
        const all = [waiting.id, notYet.id, revokedOne.id, unknownId];

        expect(ids(await store.release(all, (loaded) => releasedOneshots(loaded, at), created()))).toEqual([waiting.id]);
        expect(await store.release(all, (loaded) => releasedOneshots(loaded, at), created())).toEqual([]);
        expect(await store.release([], (loaded) => releasedOneshots(loaded, at), created())).toEqual([]);
        expect(await outboxEvents()).toHaveLength(1);
        expect(await store.get(orgA, revokedOne.id)).toMatchObject({ state: 'revoked', releasedAt: null });
      });

      it('release: saves nothing when an event cannot be built', async () => {
        const waiting = await scheduled();
        await expect(store.release([waiting.id], (loaded) => releasedOneshots(loaded, inTwoHours()), failingFactory)).rejects.toThrow(
          'the event could not be built',
        );
        expect(await store.get(orgA, waiting.id)).toEqual(waiting);
      });

      it('update and revoke of an unreleased dispatch are saved without an event; an update reschedules it', async () => {
        const waiting = await scheduled();
        const at = inTwoHours();
        const moved = await update(orgA, deviceX, waiting.id, { payload: {}, scheduledAt: at, address: 'Depot' }, updated(), nextCommandId());
        expect(moved).toMatchObject({ scheduledAt: at, address: 'Depot', releasedAt: null });
        expect(await store.get(orgA, waiting.id)).toEqual(moved);
        await revoke(orgA, deviceX, waiting.id, revoked(), nextCommandId());
        expect(await outboxEvents()).toEqual([]);
        expect(await store.listDue(at, 100)).toEqual([]);
      });

      it('revokeAll revokes the unreleased ones too, with events only for those the device knows of', async () => {
        const known = await createOne();
        const waiting = await scheduled();
        await emptyOutbox();
        const all = await revokeAll(orgA, deviceX, revoked(), nextCommandId());
        expect(ids(all)).toEqual([known.id, waiting.id]);
        expect((await outboxEvents()).map((e) => payloadOf(e).oneshotId)).toEqual([known.id]);
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
          await revoke(orgA, deviceX, first!.id, revoked(), nextCommandId());
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

        it('still knows the Idempotency-Keys recorded with creates, and of two stores on the data one creates for a key', async () => {
          const key = (fingerprint: string) => ({
            orgId: orgA,
            key: 'k',
            fingerprint,
            commandId: nextCommandId(),
            now: new Date(),
            answer: (oneshot: Oneshot) => oneshot.id,
          });
          const first = await store.createKeyed(newOneshot(), created(), key('fp'));
          if (!('created' in first)) throw new Error('expected a create');

          const after = await reopened(store);
          expect(await after.createKeyed(newOneshot(), created(), key('fp'))).toEqual({
            found: { kind: 'replay', reply: { ok: true, value: first.created.id } },
          });
          const outcomes = await Promise.all([store, after].map((on) => on.createKeyed(newOneshot({ deviceId: deviceY }), created(), { ...key('fp'), key: 'k2' })));
          expect(outcomes.filter((outcome) => 'created' in outcome)).toHaveLength(1);
          expect(await after.listOutstandingForDevice(orgA, deviceY)).toHaveLength(1);
        });

        it('lets one of two stores on the same data apply a command both handle at the same moment', async () => {
          const other = await reopened(store);
          const [oneshot] = await createMany(1);
          await emptyOutbox();
          const commandId = nextCommandId();
          const [fromStore, fromOther] = await Promise.all([
            complete(orgA, deviceX, oneshot!.id, { site: 'done' }, completed(), commandId),
            complete(orgA, deviceX, oneshot!.id, { site: 'done' }, completed(), commandId, other),
          ]);

          expect(fromOther).toEqual(fromStore);
          expect(await outboxEvents()).toHaveLength(2);
        });

        it('two stores on the same data releasing the same due dispatches at once release each once, with one event', async () => {
          const other = await reopened(store);
          const at = new Date(Date.now() + 7_200_000).toISOString();
          const waiting = await createMany(5, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
          await emptyOutbox();
          const releaseOn = async (on: PushStore) =>
            on.release(
              (await on.listDue(at, 100)).map((d) => d.id),
              (loaded) => releasedOneshots(loaded, at),
              created(),
            );
          const [fromStore, fromOther] = await Promise.all([releaseOn(store), releaseOn(other)]);

          expect([...ids(fromStore), ...ids(fromOther)].sort((a, b) => a - b)).toEqual(ids(waiting));
          expect((await outboxEvents()).map((e) => payloadOf(e).oneshotId).sort((a, b) => a - b)).toEqual(ids(waiting));
          expect(await other.listDue(at, 100)).toEqual([]);
        });

        it('keeps an unreleased dispatch unreleased, still due, after a restart', async () => {
          const at = new Date(Date.now() + 7_200_000).toISOString();
          const [waiting] = await createMany(1, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() });
          const after = await reopened(store);
          expect(await after.get(orgA, waiting!.id)).toEqual(waiting);
          expect(ids(await after.listDue(at, 100))).toEqual([waiting!.id]);
        });

        it('keeps the oneshots, submissions and counters after close and reopen', async () => {
          const [first, second] = await createMany(2);
          const submission = await complete(orgA, deviceX, first!.id, { site: 'done' }, completed(), nextCommandId());
          const pending = await outbox();
          await store.close();

          const after = await reopened(store);
          expect(await outbox(after)).toEqual(pending);
          expect(await after.get(orgA, second!.id)).toEqual(second);
          expect(await submissionOf(first!.id, orgA, after)).toEqual(submission);

          const third = await after.create(newOneshot(), created(), nextCommandId());
          expect(third.id).toBeGreaterThan(second!.id);
          const events = await outbox(after);
          expect(events.slice(0, pending.length)).toEqual(pending);
          expect(events.at(-1)!.seq).toBeGreaterThan(pending.at(-1)!.seq);
          expect(payloadOf(events.at(-1)!.event)).toMatchObject({ oneshotId: third.id });
        });
      });
    }
  });
}
