import type { Oneshot, Submission } from '../domain/records';
import type { PushStore } from './push-store';

/**
 * What a write answers, as recorded with its command id (see PushStore): the ids of the
 * oneshots it is about (of the submission, for a submission), and the answer read again
 * from them when the command comes again.
 */
export interface RecordedAnswer<T> {
  ids(answer: T): number[];
  again(ids: number[]): Promise<T>;
}

/** A write's outcome: its answer, or the ids recorded by the delivery of its command that was applied before. */
export type WriteOutcome<T> = { answer: T } | { appliedBefore: number[] };

type Reads = Pick<PushStore, 'get' | 'getSubmission'>;

/** Oneshots and submissions are never deleted, so this is a bug, not a state. */
export function recordedMissing(kind: 'Oneshot' | 'Submission', id: number | undefined): Error {
  return new Error(`${kind} ${id}, recorded by an applied command, is missing`);
}

async function recordedOneshot(store: Reads, orgId: number, id: number | undefined): Promise<Oneshot> {
  const oneshot = id === undefined ? null : await store.get(orgId, id);
  if (!oneshot) throw recordedMissing('Oneshot', id);
  return oneshot;
}

export function answerOneshot(store: Reads, orgId: number): RecordedAnswer<Oneshot> {
  return { ids: (oneshot) => [oneshot.id], again: ([id]) => recordedOneshot(store, orgId, id) };
}

export function answerOneshots(store: Reads, orgId: number): RecordedAnswer<Oneshot[]> {
  return {
    ids: (oneshots) => oneshots.map((oneshot) => oneshot.id),
    again: (ids) => Promise.all(ids.map((id) => recordedOneshot(store, orgId, id))),
  };
}

export function answerSubmission(store: Reads, orgId: number): RecordedAnswer<Submission> {
  return {
    ids: (submission) => [submission.id],
    again: async ([id]) => {
      const submission = id === undefined ? null : await store.getSubmission(orgId, id);
      if (!submission) throw recordedMissing('Submission', id);
      return submission;
    },
  };
}

/** The answer of a write: its own, or the first delivery's read again. */
export function answerOf<T>(outcome: WriteOutcome<T>, recorded: RecordedAnswer<T>): Promise<T> {
  return 'answer' in outcome ? Promise.resolve(outcome.answer) : recorded.again(outcome.appliedBefore);
}
