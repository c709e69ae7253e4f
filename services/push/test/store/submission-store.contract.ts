import { randomUUID } from 'node:crypto';
import { submissionEvents, type Envelope, type SubmissionReceivedPayload } from '@formcast/contracts';
import { oneshotEvent } from '../../src/domain/oneshot-events';
import type { Submission } from '../../src/domain/records';
import { submissionReceivedEvent, type SubmissionEventFactory } from '../../src/domain/submission-events';
import type { SubmissionQuery } from '../../src/domain/submission-query';
import { acceptedSubmission, type SubmissionLoaded, type SubmissionRequest } from '../../src/domain/submission-rules';
import type { PushStore } from '../../src/store';

/**
 * What every PushStore adapter must do with submissions of forms (those completing a
 * oneshot are in push-store.contract.ts): saved under ids of their own with their event,
 * one per client id and device, listed by form with filters and pages. `makeStore` gives a
 * fresh, empty store for each test; `reopen`, for durable adapters, a second store on the
 * same data. The suite closes them.
 */
export function describeSubmissionStoreContract(
  name: string,
  makeStore: () => Promise<PushStore>,
  options: { reopen?: (store: PushStore) => Promise<PushStore> } = {},
): void {
  describe(name, () => {
    const opened: PushStore[] = [];
    let store: PushStore;

    beforeEach(async () => {
      store = await makeStore();
      opened.push(store);
    });

    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
    });

    const orgA = 1;
    const orgB = 2;
    const formId = 7;

    interface SubmitOptions {
      orgId?: number;
      deviceId?: number;
      formId?: number;
      clientSubmissionId?: string | null;
      answers?: Record<string, unknown>;
      submittedAt?: string;
      received?: SubmissionEventFactory;
      commandId?: string;
      on?: PushStore;
    }

    function requestFor(options: SubmitOptions): SubmissionRequest {
      const orgId = options.orgId ?? orgA;
      const deviceId = options.deviceId ?? 10;
      return {
        device: { id: deviceId, orgId, identifier: `Android_${deviceId}`, owner: 'Ada', groupIds: [1] },
        form: { id: options.formId ?? formId, namespace: 'http://forms.example.com/inspection', name: 'Inspection', version: '1.01', groupId: 1 },
        oneshotId: null,
        clientSubmissionId: options.clientSubmissionId ?? null,
        answers: options.answers ?? { site: 'North yard' },
        submittedAt: options.submittedAt,
      };
    }

    /** A form submitted without a oneshot, as the handlers ask for it. */
    function submit(options: SubmitOptions = {}, transition = acceptedSubmission): Promise<Submission> {
      const request = requestFor(options);
      return (options.on ?? store).submit(
        { orgId: request.device.orgId, deviceId: request.device.id, oneshotId: null, clientSubmissionId: request.clientSubmissionId },
        (loaded) => transition(loaded, request, new Date().toISOString()),
        { completed: oneshotEvent('push.oneshot.completed', null, 'req'), received: options.received ?? submissionReceivedEvent('req-received') },
        options.commandId ?? randomUUID(),
      );
    }

    async function events(from = store): Promise<Array<Envelope<SubmissionReceivedPayload>>> {
      return (await from.unpublishedEvents(10_000)).map((entry) => entry.event as Envelope<SubmissionReceivedPayload>);
    }

    const query = (extra: Partial<SubmissionQuery> = {}): SubmissionQuery => ({ formId, offset: 0, limit: 100, ...extra });
    const ids = (submissions: Submission[]) => submissions.map((submission) => submission.id);

    describe('submit, without a oneshot', () => {
      it('saves the submission under the next id, readable by id, with its received event', async () => {
        const first = await submit({ clientSubmissionId: 'c-1', submittedAt: '2030-01-02T10:00:00+02:00' });
        const second = await submit({ orgId: orgB });

        expect(first).toEqual({
          id: expect.any(Number),
          orgId: orgA,
          deviceId: 10,
          deviceIdentifier: 'Android_10',
          deviceOwner: 'Ada',
          formId,
          formNamespace: 'http://forms.example.com/inspection',
          formName: 'Inspection',
          formVersion: '1.01',
          oneshotId: null,
          clientSubmissionId: 'c-1',
          answers: { site: 'North yard' },
          submittedAt: '2030-01-02T08:00:00.000Z',
          receivedAt: expect.stringMatching(/Z$/),
        });
        expect(first.id).toBeGreaterThan(0);
        expect(second.id).toBeGreaterThan(first.id);
        expect(await store.getSubmission(orgA, first.id)).toEqual(first);
        expect(await store.getSubmission(orgB, first.id)).toBeNull();
        const written = await events();
        expect(written.map((event) => [event.type, event.orgId, event.payload.submissionId])).toEqual([
          [submissionEvents.submissionReceived, orgA, first.id],
          [submissionEvents.submissionReceived, orgB, second.id],
        ]);
        expect(written[0]!.payload).toMatchObject({ clientSubmissionId: 'c-1', oneshotId: null, answers: { site: 'North yard' } });
      });

      it('takes the same client id on the same device as the same submission: the first answers, nothing is written', async () => {
        const first = await submit({ clientSubmissionId: 'c-1' });
        const again = await submit({ clientSubmissionId: 'c-1', answers: { site: 'Changed' } });

        expect(again).toEqual(first);
        expect(await store.findSubmission(orgA, { deviceId: 10, clientSubmissionId: 'c-1' })).toEqual(first);
        expect(await events()).toHaveLength(1);
      });

      it('takes the same client id on another device, or in another organization, as another submission', async () => {
        const first = await submit({ clientSubmissionId: 'c-1' });
        const otherDevice = await submit({ clientSubmissionId: 'c-1', deviceId: 11 });
        const otherOrganization = await submit({ clientSubmissionId: 'c-1', orgId: orgB });

        expect(new Set([first.id, otherDevice.id, otherOrganization.id]).size).toBe(3);
        expect(await events()).toHaveLength(3);
        expect(await store.findSubmission(orgB, { deviceId: 10, clientSubmissionId: 'c-1' })).toEqual(otherOrganization);
        expect(await store.findSubmission(orgA, { deviceId: 12, clientSubmissionId: 'c-1' })).toBeNull();
      });

      it("hands the transition the device's earlier submission of that client id, in its organization", async () => {
        const first = await submit({ clientSubmissionId: 'c-1' });
        await submit({ clientSubmissionId: 'c-2', orgId: orgB });
        const handed: SubmissionLoaded[] = [];
        const recording = (loaded: SubmissionLoaded, request: SubmissionRequest, now: string) => {
          handed.push(loaded);
          return acceptedSubmission(loaded, request, now);
        };
        await submit({ clientSubmissionId: 'c-1' }, recording);
        await submit({ clientSubmissionId: 'c-2' }, recording);
        await submit({ clientSubmissionId: null }, recording);

        expect(handed).toEqual([
          { oneshot: null, earlier: first },
          { oneshot: null, earlier: null },
          { oneshot: null, earlier: null },
        ]);
      });

      it('keeps nothing when the transition refuses, or the event cannot be built', async () => {
        const refusing = () => {
          throw new Error('refused');
        };
        await expect(submit({ clientSubmissionId: 'c-1' }, refusing)).rejects.toThrow('refused');
        await expect(submit({ clientSubmissionId: 'c-1', received: () => refusing() })).rejects.toThrow('refused');

        expect(await store.findSubmission(orgA, { deviceId: 10, clientSubmissionId: 'c-1' })).toBeNull();
        expect((await store.listSubmissions(orgA, query())).total).toBe(0);
        expect(await events()).toEqual([]);
        // and it can still be submitted
        expect(await submit({ clientSubmissionId: 'c-1' })).toMatchObject({ clientSubmissionId: 'c-1' });
      });

      it('answers a command delivered again with its submission, writing nothing', async () => {
        const commandId = randomUUID();
        const first = await submit({ commandId });
        expect(await submit({ commandId, answers: { site: 'Other' } })).toEqual(first);
        expect((await store.listSubmissions(orgA, query())).submissions).toEqual([first]);
        expect(await events()).toHaveLength(1);
      });

      it('ends submissions of one client id sent at the same moment as one', async () => {
        const results = await Promise.all([1, 2, 3].map(() => submit({ clientSubmissionId: 'c-race' })));

        expect(results.map((submission) => submission.id)).toEqual([results[0]!.id, results[0]!.id, results[0]!.id]);
        expect((await store.listSubmissions(orgA, query())).submissions).toEqual([results[0]]);
        expect(await events()).toHaveLength(1);
      });
    });

    describe('getSubmissions', () => {
      it("answers those of the ids that are the organization's, ascending by id, leaving out unknown ids and another organization's", async () => {
        const first = await submit();
        const other = await submit({ orgId: orgB });
        const second = await submit({ answers: { site: 'South yard' } });
        const found = await store.getSubmissions(orgA, [second.id, 999_999, other.id, first.id]);
        expect(found).toEqual([first, second]);
        expect(await store.getSubmissions(orgB, [first.id, second.id])).toEqual([]);
      });
    });

    describe('listSubmissions', () => {
      it("pages a form's submissions ascending by id, with how many there are in all", async () => {
        const made: Submission[] = [];
        for (let i = 0; i < 5; i += 1) {
          made.push(await submit());
          await submit({ formId: 8 });
          await submit({ orgId: orgB });
        }

        expect(await store.listSubmissions(orgA, query())).toEqual({ total: 5, submissions: made });
        expect(await store.listSubmissions(orgA, query({ offset: 2, limit: 2 }))).toEqual({ total: 5, submissions: made.slice(2, 4) });
        expect(await store.listSubmissions(orgA, query({ offset: 4, limit: 2 }))).toEqual({ total: 5, submissions: made.slice(4) });
        expect(await store.listSubmissions(orgA, query({ offset: 10, limit: 2 }))).toEqual({ total: 5, submissions: [] });
        expect(await store.listSubmissions(orgA, query({ formId: 99 }))).toEqual({ total: 0, submissions: [] });
        expect((await store.listSubmissions(orgB, query())).total).toBe(5);
      });

      it('filters by device identifier and by submission time, strictly after and before', async () => {
        const at = (hour: number) => `2030-01-02T${String(hour).padStart(2, '0')}:00:00.000Z`;
        const early = await submit({ submittedAt: at(8) });
        const middle = await submit({ submittedAt: at(10), deviceId: 11 });
        const late = await submit({ submittedAt: at(12) });

        expect(ids((await store.listSubmissions(orgA, query({ deviceIdentifier: 'Android_10' }))).submissions)).toEqual(ids([early, late]));
        expect(ids((await store.listSubmissions(orgA, query({ submittedAfter: at(8) }))).submissions)).toEqual(ids([middle, late]));
        expect(ids((await store.listSubmissions(orgA, query({ submittedBefore: at(12) }))).submissions)).toEqual(ids([early, middle]));
        const window = await store.listSubmissions(orgA, query({ submittedAfter: at(9), submittedBefore: at(11) }));
        expect(window).toEqual({ total: 1, submissions: [middle] });
        const none = await store.listSubmissions(orgA, query({ deviceIdentifier: 'Android_11', submittedAfter: at(10) }));
        expect(none).toEqual({ total: 0, submissions: [] });
      });

      it('filters inclusively by from and to times, by submission ids, and by text in any answer (submission.md)', async () => {
        const at = (hour: number) => `2030-01-02T${String(hour).padStart(2, '0')}:00:00.000Z`;
        const early = await submit({ submittedAt: at(8), answers: { site: 'North yard' } });
        const middle = await submit({ submittedAt: at(10), answers: { site: 'Depot', visit: { notes: 'Met ACME staff' } } });
        const late = await submit({ submittedAt: at(12), answers: { site: 'Harbour', parts: [{ part_no: 'A1' }, { part_no: 'acme-7' }] } });

        expect(ids((await store.listSubmissions(orgA, query({ submittedFrom: at(10) }))).submissions)).toEqual(ids([middle, late]));
        expect(ids((await store.listSubmissions(orgA, query({ submittedTo: at(10) }))).submissions)).toEqual(ids([early, middle]));
        expect(await store.listSubmissions(orgA, query({ ids: [late.id, early.id, 9999] }))).toEqual({ total: 2, submissions: [early, late] });
        const paths = ['site', 'visit.notes', 'parts.part_no'];
        const found = await store.listSubmissions(orgA, query({ search: 'acme', searchPaths: paths }));
        expect(found).toEqual({ total: 2, submissions: [middle, late] });
        expect((await store.listSubmissions(orgA, query({ search: 'YARD', searchPaths: paths }))).submissions).toEqual([early]);
        // The text is literal, never a pattern; keys are not answers' text.
        expect((await store.listSubmissions(orgA, query({ search: '.*', searchPaths: paths }))).total).toBe(0);
        expect((await store.listSubmissions(orgA, query({ search: 'part_no', searchPaths: paths }))).total).toBe(0);
        expect((await store.listSubmissions(orgB, query({ search: 'acme', searchPaths: paths }))).total).toBe(0);
      });

      it('keeps answers exactly as submitted', async () => {
        const answers = { site: 'Ünïcödé ✓ "quoted"', empty: {}, parts: [{ part_no: 'A1' }, {}], blank: '' };
        await submit({ answers });
        expect((await store.listSubmissions(orgA, query())).submissions[0]!.answers).toEqual(answers);
      });
    });

    const { reopen } = options;
    if (reopen) {
      it('keeps submissions, their client ids and the id counter after a restart', async () => {
        const first = await submit({ clientSubmissionId: 'c-1' });
        await store.close();
        const after = await reopen(store);
        opened.push(after);

        expect(await after.getSubmission(orgA, first.id)).toEqual(first);
        expect(await submit({ clientSubmissionId: 'c-1', on: after })).toEqual(first);
        expect((await submit({ on: after })).id).toBeGreaterThan(first.id);
      });
    }
  });
}
