/**
 * Fair service: at most `perOrganization` pieces of work of one organization run at once;
 * more of the same organization wait, first come first served, for one of its own to end.
 * Each organization has slots of its own, so another organization's work never waits behind
 * a flood: it starts at once. Work without an organization (`orgId` null) is never held.
 * `perOrganization` 0: no cap.
 */
export class OrganizationGate {
  private readonly running = new Map<number, number>();
  private readonly waiting = new Map<number, Array<() => void>>();

  constructor(readonly perOrganization: number) {}

  async run<T>(orgId: number | null, work: () => Promise<T>): Promise<T> {
    if (orgId === null || this.perOrganization <= 0) return work();
    await this.enter(orgId);
    try {
      return await work();
    } finally {
      this.leave(orgId);
    }
  }

  /** Whether work of `orgId` would wait now (its slots taken). */
  isFull(orgId: number | null): boolean {
    return orgId !== null && this.perOrganization > 0 && (this.running.get(orgId) ?? 0) >= this.perOrganization;
  }

  /** How many pieces of work of `orgId` wait for a slot. */
  waitingFor(orgId: number): number {
    return this.waiting.get(orgId)?.length ?? 0;
  }

  private enter(orgId: number): Promise<void> {
    const running = this.running.get(orgId) ?? 0;
    if (running < this.perOrganization) {
      this.running.set(orgId, running + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(orgId) ?? [];
      queue.push(resolve);
      this.waiting.set(orgId, queue);
    });
  }

  private leave(orgId: number): void {
    const queue = this.waiting.get(orgId);
    const next = queue?.shift();
    if (next) {
      // The slot passes to the next of the same organization: its count stays.
      if (queue!.length === 0) this.waiting.delete(orgId);
      next();
      return;
    }
    const running = (this.running.get(orgId) ?? 1) - 1;
    if (running > 0) this.running.set(orgId, running);
    else this.running.delete(orgId);
  }
}

/** One gate per service: a service's commands (or events) share its organizations' slots. */
export class OrganizationGates {
  private readonly byService = new Map<string, OrganizationGate>();

  constructor(private readonly perOrganization: number) {}

  of(service: string): OrganizationGate {
    let gate = this.byService.get(service);
    if (!gate) {
      gate = new OrganizationGate(this.perOrganization);
      this.byService.set(service, gate);
    }
    return gate;
  }
}
