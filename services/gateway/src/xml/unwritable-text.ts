import { AppError } from '@formcast/platform';
import { codePointLabel, firstNonXmlCharacter } from '@formcast/xml-writing';

/**
 * How a value's parts are named in a refusal: JSON and form bodies by key (`payload.customer_name`,
 * `names[0]`); parsed XML by element, with `@name` for an attribute and the element itself for its text.
 */
export type TextSource = 'json' | 'xml';

function problem(code: number): string {
  const surrogate = code >= 0xd800 && code <= 0xdfff ? ', a lone surrogate' : '';
  return `a character XML cannot carry (${codePointLabel(code)}${surrogate})`;
}

function childPath(path: string, key: string, source: TextSource): string {
  if (source === 'xml') {
    if (key === '#text') return path;
    if (key.startsWith('@_')) return `${path}@${key.slice(2)}`;
  }
  return path === '' ? key : `${path}.${key}`;
}

function isContainer(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function check(value: unknown, path: string, source: TextSource): void {
  if (typeof value === 'string') {
    const code = firstNonXmlCharacter(value);
    if (code !== undefined) throw new AppError('invalid', `${path || 'body'}: contains ${problem(code)}`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => check(item, `${path}[${i}]`, source));
    return;
  }
  if (!isContainer(value)) return; // numbers, booleans, null; a resource upload's decoded file
  for (const key of Object.keys(value)) {
    const code = firstNonXmlCharacter(key);
    if (code !== undefined) throw new AppError('invalid', `${path || 'body'}: a name contains ${problem(code)}`);
    check(value[key], childPath(path, key, source), source);
  }
}

/**
 * Refuses (AppError 'invalid', naming the field) a parsed request value holding, in any
 * string or key, a character XML 1.0 cannot carry or a lone surrogate: stored, it would make
 * every XML listing showing it unreadable, and it has no UTF-8 form. Called where the gateway
 * turns a body, path or query into a value, so no route can forget it. Bodies are at most 32
 * levels deep by then, so the recursion stays shallow.
 */
export function refuseUnwritableText(value: unknown, source: TextSource, path = ''): void {
  check(value, path, source);
}
