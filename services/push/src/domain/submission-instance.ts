import type { SubmissionInstanceView } from '@formcast/contracts';
import type { Submission } from './records';

interface QuestionOrder {
  identifier: string;
  children: QuestionOrder[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The identifiers of a level of a form definition's questions, in order, with their children's. */
function questionOrder(questions: unknown): QuestionOrder[] {
  if (!Array.isArray(questions)) return [];
  return questions.flatMap((q) =>
    isPlainObject(q) && typeof q['identifier'] === 'string' ? [{ identifier: q['identifier'], children: questionOrder(q['children']) }] : [],
  );
}

/** An answer with its subform's or its group repetitions' answers in order too. */
function orderedAnswer(value: unknown, children: QuestionOrder[]): unknown {
  if (Array.isArray(value)) return value.map((repetition) => orderedAnswer(repetition, children));
  if (isPlainObject(value)) return orderedLevel(value, children);
  return value;
}

function orderedLevel(answers: Record<string, unknown>, questions: QuestionOrder[]): Record<string, unknown> {
  const ordered: Array<[string, unknown]> = [];
  const placed = new Set<string>();
  for (const { identifier, children } of questions) {
    if (!Object.hasOwn(answers, identifier) || placed.has(identifier)) continue;
    placed.add(identifier);
    ordered.push([identifier, orderedAnswer(answers[identifier], children)]);
  }
  // Answers to questions the form no longer has (a later revision dropped them) follow, as stored.
  for (const [identifier, value] of Object.entries(answers)) if (!placed.has(identifier)) ordered.push([identifier, value]);
  return Object.fromEntries(ordered);
}

/**
 * Answers in the order of the form's questions, at every level (a subform's questions, each
 * repetition of a group), as a device writes its instance; answers keep their values.
 * `questions` null (the form was deleted since): the order they were stored in.
 */
export function answersInFormOrder(answers: Record<string, unknown>, questions: unknown[] | null): Record<string, unknown> {
  return questions === null ? answers : orderedLevel(answers, questionOrder(questions));
}

/** A submission as its XML instance shows it, its answers in the form's order (see answersInFormOrder). */
export function toSubmissionInstanceView(s: Submission, questions: unknown[] | null): SubmissionInstanceView {
  return {
    id: s.id,
    form_id: s.formId,
    form_name: s.formName,
    form_namespace: s.formNamespace,
    form_version: s.formVersion,
    device_identifier: s.deviceIdentifier,
    submission_identifier: s.clientSubmissionId,
    submitted_at: s.submittedAt,
    received_at: s.receivedAt,
    answers: answersInFormOrder(s.answers, questions),
  };
}
