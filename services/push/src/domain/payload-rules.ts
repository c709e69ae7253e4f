import { AppError } from '@formcast/platform';
import { imageQuestionTypes, isImageReference } from './image-answers';
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

/** How a level is checked: `lenient`, one object may stand for one repetition; `answers`, as a submission's (see checkAnswers). */
interface Rules {
  lenient: boolean;
  answers: boolean;
}

/**
 * Checks pushed values against the template's questions (spec 4.4): a plain question takes
 * a string, a subform an object of its questions, a repeating group an array of such
 * objects. Keys that are not question names (`__proto__` included) and values that are not
 * what the question takes (`{"$gt": ""}` included) are refused with the field's path.
 * `lenientRepeats`: a single object stands for one repetition (XML cannot tell them apart).
 */
export function checkPayload(payload: unknown, questions: unknown, options: { lenientRepeats?: boolean } = {}): Record<string, unknown> {
  return checkLevel(payload, questionIndex(questions), 'payload', { lenient: options.lenientRepeats ?? false, answers: false });
}

/**
 * An XML instance's answers: those inside its one `<inputs>` element, as the form's own
 * instance and `GET /api/v3/submissions/<id>` show them, unless the form has a question
 * named `inputs` (then the element is that question's answer); else as given.
 */
export function instanceAnswers(answers: unknown, questions: unknown): unknown {
  if (!isPlainObject(answers)) return answers;
  const keys = Object.keys(answers);
  if (keys.length !== 1 || keys[0] !== 'inputs' || questionIndex(questions).has('inputs')) return answers;
  const inputs = answers['inputs'];
  // An empty <inputs/> is no answers; a repeated <inputs> is left to the form check (no question is called that).
  if (inputs === '') return {};
  return isPlainObject(inputs) ? inputs : answers;
}

/** A submission's answers before their form is known: an object, or a bad request. */
export function checkAnswersShape(answers: unknown): Record<string, unknown> {
  if (!isPlainObject(answers)) fail('answers', 'must be an object of question names to answers');
  return answers;
}

/**
 * Checks a submission's answers against the form's questions as push payloads are checked,
 * with what devices send besides: an answer may come as the real product's `{"value": …}`
 * (kept as its value), '' for any question (unanswered, kept), or null (unanswered, left out).
 */
export function checkAnswers(answers: unknown, questions: unknown, options: { lenientRepeats?: boolean } = {}): Record<string, unknown> {
  return checkLevel(answers, questionIndex(questions), 'answers', { lenient: options.lenientRepeats ?? false, answers: true });
}

function checkLevel(value: unknown, questions: Map<string, Question>, path: string, rules: Rules): Record<string, unknown> {
  if (!isPlainObject(value)) fail(path, 'must be an object of question names to values');
  // A Map lookup: `__proto__` or `constructor` can only be question names if a form says so.
  const entries: Array<readonly [string, unknown]> = [];
  for (const key of Object.keys(value)) {
    const at = `${path}.${key}`;
    const question = questions.get(key);
    if (!question) fail(at, 'is not a question of this form');
    const given = rules.answers ? answerValue(value[key], question) : value[key];
    if (rules.answers && given === null) continue;
    entries.push([key, checkAnswer(given, question, at, rules)]);
  }
  return Object.fromEntries(entries);
}

/** `{"value": x}` stands for x, unless the question is a subform or group with a question named `value`. */
function answerValue(given: unknown, question: Question): unknown {
  if (!isPlainObject(given)) return given;
  const keys = Object.keys(given);
  if (keys.length !== 1 || keys[0] !== 'value' || questionIndex(question.children).has('value')) return given;
  return given['value'];
}

function checkAnswer(value: unknown, question: Question, path: string, rules: Rules): unknown {
  if (rules.answers && value === '') return value;
  const children = questionIndex(question.children);
  if (question.type === 'subform') return checkLevel(value, children, path, rules);
  if (question.type === 'group') {
    const repetitions = rules.lenient && isPlainObject(value) ? [value] : value;
    if (!Array.isArray(repetitions)) fail(path, 'must be an array with one object per repetition');
    if (repetitions.length > maxRepetitions) fail(path, `must have at most ${maxRepetitions} repetitions`);
    return repetitions.map((r, i) => checkLevel(r, children, `${path}[${i}]`, rules));
  }
  if (typeof value !== 'string') fail(path, `must be a string (a ${question.type} value)`);
  // A submission may name an image its device uploads apart (v3/submission_image.md): it waits for it.
  if (rules.answers && imageQuestionTypes.has(question.type) && isImageReference(value)) return value;
  const reason = checkValue(question.type, value, question);
  if (reason) fail(path, reason);
  return value;
}
