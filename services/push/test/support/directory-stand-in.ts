import { InProcessBus } from '@formcast/bus';
import { directoryCommands, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';
import { AppError, createLogger } from '@formcast/platform';
import { DirectoryLookup } from '../../src/directory-cache/directory-lookup';

/**
 * The directory's resolve commands on an in-process bus, over devices and templates the test
 * holds (each scoped by its organization, as the directory scopes them), behind the real
 * directory cache. `down` makes every lookup fail as an unreachable directory does; a device
 * removed from `devices` is not_found, as a deleted one.
 */
export class DirectoryStandIn {
  down = false;
  lookups = 0;
  readonly lookup: DirectoryLookup;

  private constructor(
    private readonly bus: InProcessBus,
    readonly devices: ResolvedDevice[],
    readonly templates: ResolvedForm[],
  ) {
    // A TTL of 0: every lookup asks the stand-in, so a change the test makes shows at once.
    this.lookup = new DirectoryLookup(bus, { ttlMs: 0, timeoutMs: 2000 });
  }

  static async start(devices: ResolvedDevice[], templates: ResolvedForm[]): Promise<DirectoryStandIn> {
    const bus = new InProcessBus({ logger: createLogger({ level: 'silent' }) });
    const standIn = new DirectoryStandIn(bus, devices, templates);
    bus.handleCommand('directory', directoryCommands.resolveDevice, async (command) => {
      standIn.answerable();
      const { ref } = command.payload as { ref: string };
      const device = standIn.devices.find((d) => d.orgId === command.orgId && (d.identifier === ref || String(d.id) === ref));
      if (!device) throw new AppError('not_found', `Device ${ref} does not exist`);
      return device;
    });
    bus.handleCommand('directory', directoryCommands.resolveForm, async (command) => {
      standIn.answerable();
      const { namespace, formId } = command.payload as { namespace?: string; formId?: number };
      const form = standIn.templates.find((t) => t.orgId === command.orgId && (t.namespace === namespace || t.id === formId));
      if (!form) throw new AppError('not_found', `form_namespace: no form of this organization has namespace ${namespace}`);
      return form;
    });
    await bus.start();
    return standIn;
  }

  async close(): Promise<void> {
    await this.bus.close();
  }

  private answerable(): void {
    this.lookups += 1;
    if (this.down) throw new AppError('unavailable', 'The directory is down');
  }
}
