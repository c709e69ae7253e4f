/**
 * What a pre-filled value of each question type must look like (spec 2.10: text values;
 * Base64 JPEG for images, sketches and signatures; `lat=<lat>, long=<long>` for locations).
 * Each returns a reason when the value is wrong, or undefined.
 */
type Rule = (value: string, question: Record<string, unknown>) => string | undefined;

const maxTextLength = 100_000;
const maxImageBytes = 10 * 1024 * 1024;

const anyText: Rule = (v) => (v.length > maxTextLength ? `must be at most ${maxTextLength} characters` : undefined);

const integer: Rule = (v) => (/^[-+]?\d{1,18}$/.test(v.trim()) ? undefined : 'must be a whole number');
const decimal: Rule = (v) => (/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(v.trim()) ? undefined : 'must be a decimal number');
const boolean: Rule = (v) => (/^(true|false|1|0|yes|no)$/i.test(v.trim()) ? undefined : 'must be true or false');

function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

const date: Rule = (v) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.trim());
  return m && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) ? undefined : 'must be a date, YYYY-MM-DD';
};
const timePattern = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?([zZ]|[-+]\d{2}:?\d{2})?$/;
const time: Rule = (v) => (timePattern.test(v.trim()) ? undefined : 'must be a time, HH:MM or HH:MM:SS');
const datetime: Rule = (v) => {
  const [day, clock] = v.trim().split(/[T ]/);
  return day !== undefined && clock !== undefined && !date(day, {}) && timePattern.test(clock)
    ? undefined
    : 'must be a date and time, YYYY-MM-DDTHH:MM:SS';
};

/** The allowed values of a choice question, where its definition lists them. */
function choiceValues(question: Record<string, unknown>): string[] | undefined {
  const list = question['options'] ?? question['choices'];
  if (!Array.isArray(list)) return undefined;
  return list
    .map((o) => (typeof o === 'string' ? o : typeof o === 'object' && o !== null ? (o as { value?: unknown }).value : undefined))
    .filter((o): o is string => typeof o === 'string');
}
const select1: Rule = (v, q) => {
  const allowed = choiceValues(q);
  return !allowed || allowed.includes(v) ? undefined : `must be one of ${allowed.join(', ')}`;
};
const select: Rule = (v, q) => {
  const allowed = choiceValues(q);
  if (!allowed) return anyText(v, q);
  const wrong = v.split(/\s+/).filter((c) => c && !allowed.includes(c));
  return wrong.length === 0 ? undefined : `must be among ${allowed.join(', ')}`;
};

const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;
const jpeg: Rule = (v) => {
  const compact = v.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !base64Pattern.test(compact)) return 'must be Base64';
  if ((compact.length / 4) * 3 > maxImageBytes) return `must be at most ${maxImageBytes} bytes`;
  const bytes = Buffer.from(compact, 'base64');
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff ? undefined : 'must be a JPEG image (JPEG only)';
};

const locationPattern = /^lat=([-+]?\d+(?:\.\d+)?),\s*long=([-+]?\d+(?:\.\d+)?)$/;
const location: Rule = (v) => {
  const m = locationPattern.exec(v.trim());
  if (!m) return 'must be "lat=<latitude>, long=<longitude>"';
  if (Math.abs(Number(m[1])) > 90) return 'latitude must be between -90 and 90';
  if (Math.abs(Number(m[2])) > 180) return 'longitude must be between -180 and 180';
  return undefined;
};

export const valueRules: Record<string, Rule> = {
  integer,
  decimal,
  boolean,
  date,
  time,
  datetime,
  select1,
  select,
  image: jpeg,
  sketch: jpeg,
  signature: jpeg,
  location,
};

export function checkValue(type: string, value: string, question: Record<string, unknown>): string | undefined {
  return (valueRules[type] ?? anyText)(value, question);
}
