import { AppError } from '@formcast/platform';
import type { FormDefinition, Question } from './records';

/** Question types a definition may use; `subform` and `group` (repeating) hold children. */
export const questionTypes = [
  'text', 'textarea', 'password', 'email', 'phone', 'barcode', 'note', 'calculate',
  'select1', 'select', 'decimal', 'integer', 'date', 'datetime', 'time', 'boolean',
  'image', 'sketch', 'signature', 'location', 'subform', 'group',
] as const;

const containerTypes = new Set(['subform', 'group']);
const knownTypes = new Set<string>(questionTypes);
/** Question identifiers become element names in pushed XML and keys in JSON payloads. */
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;
const reservedIdentifiers = new Set(['__proto__', 'constructor', 'prototype', 'form_name', 'form_namespace', 'form_description']);
const maxDepth = 8;
const maxQuestions = 2000;

function fail(path: string, message: string): never {
  throw new AppError('invalid', `${path}: ${message}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkQuestions(children: unknown, path: string, depth: number, count: { n: number }): Question[] {
  if (!Array.isArray(children)) fail(path, 'must be an array of questions');
  if (depth > maxDepth) fail(path, `questions may be nested at most ${maxDepth} deep`);
  const seen = new Set<string>();
  return children.map((child, index) => {
    const at = `${path}[${index}]`;
    if (!isPlainObject(child)) fail(at, 'must be an object');
    count.n += 1;
    if (count.n > maxQuestions) fail('children', `a form may have at most ${maxQuestions} questions`);
    const { identifier, type, title } = child;
    if (typeof identifier !== 'string' || !identifierPattern.test(identifier) || reservedIdentifiers.has(identifier)) {
      fail(`${at}.identifier`, 'must be a name of letters, digits, "_" or "-", starting with a letter or "_"');
    }
    if (seen.has(identifier)) fail(`${at}.identifier`, `"${identifier}" is used twice`);
    seen.add(identifier);
    if (typeof type !== 'string' || !knownTypes.has(type)) {
      fail(`${at}.type`, `must be one of ${questionTypes.join(', ')}`);
    }
    if (title !== undefined && typeof title !== 'string') fail(`${at}.title`, 'must be a string');
    if (containerTypes.has(type)) {
      return { ...child, identifier, type, children: checkQuestions(child.children, `${at}.children`, depth + 1, count) };
    }
    if (child.children !== undefined) fail(`${at}.children`, `only subform and group questions hold children`);
    return { ...child, identifier, type } as Question;
  });
}

/** Checks a form definition as posted; returns it typed, or throws AppError('invalid'). */
export function checkFormDefinition(input: unknown): FormDefinition {
  if (!isPlainObject(input)) fail('definition', 'must be a JSON object');
  if (input.type !== 'root') fail('type', 'must be "root"');
  if (typeof input.title !== 'string' || input.title.trim() === '') fail('title', 'must be a non-empty string');
  if (input.title.length > 255) fail('title', 'must be at most 255 characters');
  if (input.namespace !== undefined) {
    if (typeof input.namespace !== 'string' || !isUri(input.namespace)) fail('namespace', 'must be an absolute URI');
  }
  if (input.description !== undefined && typeof input.description !== 'string') fail('description', 'must be a string');
  const children = checkQuestions(input.children ?? [], 'children', 1, { n: 0 });
  return { ...input, type: 'root', title: input.title, children } as FormDefinition;
}

function isUri(value: string): boolean {
  if (value.length > 1000 || /[\s?#]/.test(value)) return false;
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}
