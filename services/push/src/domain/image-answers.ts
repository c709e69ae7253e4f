import { checkValue } from './value-rules';

/** The question types whose answer is an image: Base64 JPEG inline, or the identifier of an image uploaded apart. */
export const imageQuestionTypes = new Set(['image', 'sketch', 'signature']);

/** An image identifier as a submission names it (v3/submission_image.md): `1234`, a uuid, `photo_1.jpg`. Never Base64 with `+`, `/` or `=`. */
const identifierPattern = /^[A-Za-z0-9._:-]{1,255}$/;

/**
 * Whether an image question's answer names an image uploaded apart, rather than carrying it:
 * not a Base64 JPEG, and an identifier's characters. `1234` is Base64 too, but of no JPEG.
 */
export function isImageReference(value: string): boolean {
  return identifierPattern.test(value) && checkValue('image', value, {}) !== undefined;
}

interface Question {
  identifier: string;
  type: string;
  children?: unknown;
}

function questionsOf(questions: unknown): Map<string, Question> {
  const index = new Map<string, Question>();
  if (!Array.isArray(questions)) return index;
  for (const q of questions as Array<Record<string, unknown>>) {
    if (q && typeof q['identifier'] === 'string' && typeof q['type'] === 'string') index.set(q['identifier'], q as unknown as Question);
  }
  return index;
}

/**
 * The image identifiers a submission's (checked) answers name, in the order met, each once:
 * image, sketch and signature answers that are references, in subforms and group
 * repetitions too. The submission waits for these images.
 */
export function namedImages(answers: Record<string, unknown>, questions: unknown): string[] {
  const found = new Set<string>();
  const walk = (level: unknown, index: Map<string, Question>) => {
    if (typeof level !== 'object' || level === null || Array.isArray(level)) return;
    for (const [key, value] of Object.entries(level)) {
      const question = index.get(key);
      if (!question) continue;
      if (imageQuestionTypes.has(question.type)) {
        if (typeof value === 'string' && isImageReference(value)) found.add(value);
      } else if (question.type === 'group' && Array.isArray(value)) {
        for (const repetition of value) walk(repetition, questionsOf(question.children));
      } else if (question.type === 'subform') {
        walk(value, questionsOf(question.children));
      }
    }
  };
  walk(answers, questionsOf(questions));
  return [...found];
}
