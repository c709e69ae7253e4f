import type { CommandHandler } from '@formcast/bus';
import { idempotent, type IdempotentOptions } from './idempotent';
import type { IdempotencyStore } from './idempotency-store';

type HandlerMakers<Deps> = Record<string, (deps: Deps) => CommandHandler>;

/**
 * A service's command table with the commands `types` answering once per Idempotency-Key
 * (see `idempotent`), for `registerServiceHandlers`. Without a store (tests of other
 * behaviour), the table as it is. A type missing from the table is left out: the table's
 * own type lists every command the service must serve.
 */
export function withIdempotencyKeys<Deps>(
  handlers: HandlerMakers<Deps>,
  types: readonly string[],
  store: IdempotencyStore | undefined,
  options: IdempotentOptions = {},
): HandlerMakers<Deps> {
  if (!store) return handlers;
  const wrapped: HandlerMakers<Deps> = { ...handlers };
  for (const type of types) {
    const make = handlers[type];
    if (make) wrapped[type] = (deps) => idempotent(store, make(deps), options);
  }
  return wrapped;
}
