import { createEnvelope } from '@formcast/contracts';
import { gate, uniqueName, waitFor } from '@formcast/testing';
import type { Bus, BusOptions } from '../src';

/**
 * Fair service, for every adapter: one organization's flood of commands (or events) runs at
 * most `commandsPerOrganization` (`eventsPerOrganization`) at once, the rest waiting behind
 * its own, while another organization's, sent after the flood, is served at once.
 * `makeBus(options)`: a new, unstarted bus with these options (and a prefetch above them).
 */
export function describeFairServiceContract(name: string, makeBus: (options: BusOptions) => Promise<Bus>): void {
  describe(`${name}: fair service across organizations`, () => {
    const opened: Bus[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });
    const started = async (options: BusOptions, register: (bus: Bus) => void) => {
      const bus = await makeBus(options);
      opened.push(bus);
      register(bus);
      await bus.start();
      return bus;
    };

    it("caps one organization's commands under way and serves another's past its waiting ones", async () => {
      const service = uniqueName('fair');
      const type = uniqueName('work');
      const release = gate();
      const running = new Map<number, number>();
      let mostOfA = 0;
      const bus = await started({ commandsPerOrganization: 2 }, (b) =>
        b.handleCommand(service, type, async (command) => {
          const orgId = command.orgId!;
          running.set(orgId, (running.get(orgId) ?? 0) + 1);
          if (orgId === 1) mostOfA = Math.max(mostOfA, running.get(1)!);
          try {
            if (orgId === 1) await release.opened;
            return orgId;
          } finally {
            running.set(orgId, running.get(orgId)! - 1);
          }
        }),
      );
      const flood = Array.from({ length: 12 }, () => bus.request(createEnvelope(type, {}, { orgId: 1 }), { timeoutMs: 20_000 }));
      await waitFor(() => (running.get(1) ?? 0) === 2, { description: "two of organization 1's commands under way" });
      // Organization 2's command, sent after the flood, is answered while the flood waits.
      await expect(bus.request(createEnvelope(type, {}, { orgId: 2 }), { timeoutMs: 5000 })).resolves.toBe(2);
      expect(running.get(1)).toBe(2);
      release.open();
      await expect(Promise.all(flood)).resolves.toEqual(Array(12).fill(1));
      expect(mostOfA).toBe(2);
    });

    it("handles another organization's event while one organization's backlog waits, and every event of the backlog once it may", async () => {
      const service = uniqueName('fair');
      const type = uniqueName('happened');
      const release = gate();
      const handled = new Map<number, Set<string>>();
      let runningOfA = 0;
      let mostOfA = 0;
      const bus = await started({ eventsPerOrganization: 4 }, (b) =>
        b.subscribe(service, type, async (event) => {
          const orgId = event.orgId!;
          if (orgId === 1) {
            runningOfA += 1;
            mostOfA = Math.max(mostOfA, runningOfA);
            await release.opened;
            runningOfA -= 1;
          }
          const seen = handled.get(orgId) ?? new Set<string>();
          seen.add(event.id);
          handled.set(orgId, seen);
        }),
      );
      const backlog = Array.from({ length: 120 }, () => createEnvelope(type, {}, { orgId: 1 }));
      // All at once, as the outbox relay publishes a batch.
      await Promise.all(backlog.map((event) => bus.publish(event)));
      const newer = createEnvelope(type, {}, { orgId: 2 });
      await bus.publish(newer);
      try {
        await waitFor(() => handled.get(2)?.has(newer.id) === true, { description: "organization 2's event, behind organization 1's 120", timeoutMs: 15_000 });
      } finally {
        if (handled.get(2) === undefined) release.open();
      }
      expect(handled.get(1)?.size ?? 0).toBe(0);
      expect(mostOfA).toBeLessThanOrEqual(4);
      release.open();
      await waitFor(() => (handled.get(1)?.size ?? 0) === backlog.length, { description: "all of organization 1's events", timeoutMs: 30_000 });
      expect([...handled.get(1)!].sort()).toEqual(backlog.map((e) => e.id).sort());
    });
  });
}
