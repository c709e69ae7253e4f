import type { Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { validEnvelope } from '../envelope-codec';

/**
 * Messages inside one process travel as frozen objects, not as JSON: no encode and decode a
 * hop. What the handler (or the requester, for a reply) gets is exactly what JSON would
 * deliver, and nobody can change it under anybody else: the data is frozen where it is, the
 * sender's own objects with it (a sender hands its message over and no longer changes it).
 * Data JSON would change (a Date, an `undefined` key, NaN, a class instance) goes through
 * JSON instead, as it did between processes, and arrives as plain data, frozen too. The
 * attachment's Buffer is handed over as it is, as on every adapter.
 */
export function frozenEnvelope(envelope: Envelope): Envelope {
  const valid = validEnvelope(envelope);
  valid.payload = frozenValue(valid.payload, `The payload of ${valid.type}`);
  // A key JSON would leave out is left out.
  if (valid.attachment === undefined) delete valid.attachment;
  if (valid.idempotency === undefined) delete valid.idempotency;
  else valid.idempotency = frozenValue(valid.idempotency, `The idempotency of ${valid.type}`) as Envelope['idempotency'];
  if (valid.traceContext === undefined) delete valid.traceContext;
  else valid.traceContext = frozenValue(valid.traceContext, `The trace context of ${valid.type}`) as Envelope['traceContext'];
  return Object.freeze(valid);
}

/**
 * `value` frozen as it is when JSON would deliver it unchanged, else a frozen copy through
 * JSON (`null` for `undefined`); `what` names it in the AppError `internal` thrown when JSON
 * cannot carry it.
 */
export function frozenValue(value: unknown, what: string): unknown {
  if (value === undefined) return null;
  return freezesAsJson(value, 0) ? value : frozenThroughJson(value, what);
}

function frozenThroughJson(value: unknown, what: string): unknown {
  let copy: unknown;
  try {
    const json = JSON.stringify(value);
    copy = json === undefined ? null : JSON.parse(json);
  } catch {
    throw new AppError('internal', `${what} is not JSON-serializable`);
  }
  freezesAsJson(copy, 0);
  return copy;
}

// Deeper than any message the services send; a cycle ends here too (and JSON then refuses it).
const maxDepth = 64;

/**
 * Whether JSON would deliver `value` unchanged (plain objects and arrays of strings, finite
 * numbers, booleans and null); when it would, `value` is frozen, deep. A part found to pass
 * is frozen before its siblings are looked at: on `false`, some of it may be frozen already.
 */
function freezesAsJson(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) {
      if (!freezesAsJson(value[index], depth + 1)) return false;
    }
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    const record = value as Record<string, unknown>;
    for (const key in record) {
      if (!freezesAsJson(record[key], depth + 1)) return false;
    }
  }
  Object.freeze(value);
  return true;
}
