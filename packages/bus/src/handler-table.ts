/** Handlers by service and message type; registering the same pair twice is a bug. */
export class HandlerTable<H> {
  private readonly byService = new Map<string, Map<string, H>>();

  /** Adds the handler; returns true when it is the first for `service`. */
  add(service: string, type: string, handler: H): boolean {
    let handlers = this.byService.get(service);
    const isNewService = handlers === undefined;
    handlers ??= new Map();
    if (handlers.has(type)) throw new Error(`${service} already handles ${type}`);
    handlers.set(type, handler);
    this.byService.set(service, handlers);
    return isNewService;
  }

  get(service: string, type: string): H | undefined {
    return this.byService.get(service)?.get(type);
  }

  services(): string[] {
    return [...this.byService.keys()];
  }

  types(service: string): string[] {
    return [...(this.byService.get(service)?.keys() ?? [])];
  }
}
