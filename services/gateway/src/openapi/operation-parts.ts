import { z } from 'zod';
import type { Answer } from './operation';
import { fieldOf, type JsonSchema } from './json-schema';

/**
 * An answer whose JSON wraps its records in their names, as the product answers them:
 * `answerOf('The device', { device: deviceView })` is `{"device": {…}}`,
 * `{ devices: z.array(deviceView) }` a list; the XML, when the route answers it, in words.
 */
export function answerOf(description: string, wrapped: z.ZodRawShape, xml?: string): Answer {
  return { description, json: z.strictObject(wrapped), ...(xml ? { xml } : {}) };
}

/**
 * `{"<name>": {…}}`: a body wrapping its fields in the record's name, as the product takes
 * them (`{"device": {"owner": …}}`); `required` the fields a request must give.
 */
export function wrappedBody(name: string, properties: Record<string, unknown>, required?: string[]): JsonSchema {
  return { type: 'object', properties: { [name]: { type: 'object', properties, ...(required ? { required } : {}) } }, required: [name] };
}

/** The query of a paged list: `page` from 1, and the page's size under the name the list takes (`per_page`, `items`). */
export function pageQuery(payload: z.ZodType, size: string, sizeDescription: string): Record<string, { schema: JsonSchema; description: string }> {
  return {
    page: { schema: fieldOf(payload, 'page'), description: 'The page, from 1' },
    [size]: { schema: fieldOf(payload, size), description: sizeDescription },
  };
}
