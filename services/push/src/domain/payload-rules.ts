import { AppError } from '@formcast/platform';
import { checkValue } from './value-rules';

interface Question {
  identifier: string;
  type: string;
  children?: Question[];
  [other: string]: unknown;
}

const maxRepetitions = 1000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function fail(path: string, message: string): never {
  throw new AppError('invalid', `${path}: ${message}`);
}

function questionIndex(questions: unknown): Map<string, Question> {
  const index = new Map<string, Question>();
  if (!Array.isArray(questions)) return index;
  for (const q of questions) {
    if (isPlainObject(q) && typeof q.identifier === 'string' && typeof q.type === 'string') index.set(q.identifier, q as Question);
  }
  return index;
}

/**
 * Checks pushed values against the template's questions (spec 4.4): a plain question takes
 * a string, a subform an object of its questions, a repeating group an array of such
 * objects. Keys that are not question names (`__proto__` included) and values that are not
 * what the question takes (`{"$gt": ""}` included) are refused with the field's path.
 * `lenientRepeats`: a single object stands for one repetition (XML cannot tell them apart).
 */
export function checkPayload(payload: unknown, questions: unknown, options: { lenientRepeats?: boolean } = {}): Record<string, unknown> {
  return checkLevel(payload, questionIndex(questions), 'payload', options.lenientRepeats ?? false);
}

function checkLevel(value: unknown, questions: Map<string, Question>, path: string, lenient: boolean): Record<string, unknown> {
  if (!isPlainObject(value)) fail(path, 'must be an object of question names to values');
  // A Map lookup: `__proto__` or `constructor` can only be question names if a form says so.
  const entries = Object.keys(value).map((key) => {
    const at = `${path}.${key}`;
    const question = questions.get(key);
    if (!question) fail(at, 'is not a question of this form');
    return [key, checkAnswer(value[key], question, at, lenient)] as const;
  });
  return Object.fromEntries(entries);
}

function checkAnswer(value: unknown, question: Question, path: string, lenient: boolean): unknown {
  const children = questionIndex(question.children);
  if (question.type === 'subform') return checkLevel(value, children, path, lenient);
  if (question.type === 'group') {
    const repetitions = lenient && isPlainObject(value) ? [value] : value;
    if (!Array.isArray(repetitions)) fail(path, 'must be an array with one object per repetition');
    if (repetitions.length > maxRepetitions) fail(path, `must have at most ${maxRepetitions} repetitions`);
    return repetitions.map((r, i) => checkLevel(r, children, `${path}[${i}]`, lenient));
  }
  if (typeof value !== 'string') fail(path, `must be a string (a ${question.type} value)`);
  const reason = checkValue(question.type, value, question);
  if (reason) fail(path, reason);
  return value;
}
