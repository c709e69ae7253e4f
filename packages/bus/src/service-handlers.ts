import type { Bus, CommandHandler, EventHandler } from './port';

/** One handler maker per name of a contract's command (or event) table: none missing, none extra. */
export type HandlerTable<Names extends Record<string, string>, Deps, Handler> = Record<Names[keyof Names], (deps: Deps) => Handler>;
export type CommandHandlers<Commands extends Record<string, string>, Deps> = HandlerTable<Commands, Deps, CommandHandler>;

/**
 * A contract's handler table from makers named as the contract names its messages:
 * `handlersByName(directoryCommands, { createForm, ... })` serves `directoryCommands.createForm`
 * with `createForm`. Every name must have its maker (the compiler says which is missing).
 */
export function handlersByName<Names extends Record<string, string>, Deps, Handler = CommandHandler>(
  names: Names,
  makers: { [Name in keyof Names]: (deps: Deps) => Handler },
): HandlerTable<Names, Deps, Handler> {
  const table: Record<string, (deps: Deps) => Handler> = {};
  for (const name of Object.keys(names) as (keyof Names)[]) table[names[name]] = makers[name];
  return table as HandlerTable<Names, Deps, Handler>;
}

/** What a service serves on the bus: its command handlers and the events it consumes, each made from its dependencies. */
export interface ServiceHandlers<Deps> {
  commands?: Record<string, (deps: Deps) => CommandHandler>;
  events?: Record<string, (deps: Deps) => EventHandler>;
}

/** Registers every handler of a service under its name, each made once from `deps`. */
export function registerServiceHandlers<Deps>(bus: Bus, service: string, deps: Deps, handlers: ServiceHandlers<Deps>): void {
  for (const [type, make] of Object.entries(handlers.commands ?? {})) bus.handleCommand(service, type, make(deps));
  for (const [type, make] of Object.entries(handlers.events ?? {})) bus.subscribe(service, type, make(deps));
}
