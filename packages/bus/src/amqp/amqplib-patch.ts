import type { ChannelModel } from 'amqplib';

/** What a patch of amqplib's internals reports: whether it is in place, and if not, what it missed. */
export interface PatchResult {
  patch: string;
  applied: boolean;
  /** The private part of amqplib the patch could not find. */
  reason?: string;
}

/** One thing a patch relies on: whether it holds, and how to say it when it does not. */
export type Requirement = [holds: boolean, missing: string];

/** amqplib's `Connection` (a ChannelModel's undocumented `connection`), its fields unknown until checked. */
export type PrivateConnection = Record<string, unknown>;

/**
 * A change to amqplib's private `Connection`: checked against what it relies on first, so
 * that a version of amqplib without it gets no half-applied patch, only a result saying why.
 */
export interface AmqplibPatch<Connection extends object = object> {
  readonly name: string;
  requirements(connection: PrivateConnection): Requirement[];
  /** Puts the patch on a connection that meets every requirement (once per connection). */
  apply(connection: Connection): void;
}

const appliedTo = new WeakMap<AmqplibPatch, WeakSet<object>>();

export function applyPatch(patch: AmqplibPatch, model: ChannelModel): PatchResult {
  const connection: unknown = (model as unknown as { connection?: unknown }).connection;
  if (typeof connection !== 'object' || connection === null) {
    return { patch: patch.name, applied: false, reason: 'the ChannelModel has no `connection`' };
  }
  const unmet = patch.requirements(connection as PrivateConnection).find(([holds]) => !holds);
  if (unmet) return { patch: patch.name, applied: false, reason: unmet[1] };
  const patched = appliedTo.get(patch) ?? new WeakSet<object>();
  appliedTo.set(patch, patched);
  if (!patched.has(connection)) {
    patch.apply(connection);
    patched.add(connection);
  }
  return { patch: patch.name, applied: true };
}

export function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === 'function';
}
