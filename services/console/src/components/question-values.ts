import type { Question } from '../api/types';

/** What the dispatch form holds: text per plain question, an object per subform, a list per group. */
export interface Answers {
  [identifier: string]: AnswerValue;
}
export type AnswerValue = string | Answers | Answers[];

/** Questions a dispatch cannot pre-fill: shown text and computed values. */
const notFillable = new Set(['note', 'calculate']);

export function fillableQuestions(questions: Question[] | undefined): Question[] {
  return (questions ?? []).filter((q) => !notFillable.has(q.type));
}

/** The choices of a select question, as the definition lists them. */
export function choicesOf(question: Question): Array<{ value: string; label: string }> {
  return (question.options ?? []).flatMap((option) => {
    if (typeof option === 'string') return [{ value: option, label: option }];
    if (typeof option.value !== 'string') return [];
    return [{ value: option.value, label: option.label ?? option.title ?? option.value }];
  });
}

/**
 * The payload to send: only what was filled in (an empty field is left out, not sent as
 * ''), subforms as objects, groups as lists of their non-empty repetitions.
 */
export function payloadOf(answers: Answers): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(answers)) {
    if (typeof value === 'string') {
      if (value.trim() !== '') payload[key] = value;
    } else if (Array.isArray(value)) {
      const rows = value.map(payloadOf).filter((row) => Object.keys(row).length > 0);
      if (rows.length > 0) payload[key] = rows;
    } else {
      const nested = payloadOf(value);
      if (Object.keys(nested).length > 0) payload[key] = nested;
    }
  }
  return payload;
}
