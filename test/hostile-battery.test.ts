import { XMLValidator } from 'fast-xml-parser';
import { serviceStarters } from '@formcast/embedded';
import {
  createBatteryFixtures,
  hostileClasses,
  ownPath,
  pollutionMark,
  routes,
  sendAllHostile,
  xmlListings,
  type BatteryContext,
  type BatteryFixtures,
  type HostileAnswer,
} from './support/hostile-inputs';
import { processNameOf, startDistributed } from './support/start-distributed';
import { startSystem, systemModes, type RunningSystem, type SystemMode } from './support/start-system';
import { useStartedSystem } from './support/use-system';

/**
 * Issue 16's battery: every route of the gateway × every hostile class, in every mode. Each
 * class must get no 5xx (and an answer to every request), leave every process alive, and
 * change nothing of another organization; after the control characters, the organization's
 * XML listings must still parse.
 */

const bodyLimitBytes = 64 * 1024;
const resourceMaxBytes = 16 * 1024;
const batteryEnv = { BODY_LIMIT_BYTES: String(bodyLimitBytes), RESOURCE_MAX_BYTES: String(resourceMaxBytes), LOG_LEVEL: 'warn' };
/** The gateway's resourceBodyLimit(RESOURCE_MAX_BYTES): the file's Base64 three times over, and 64 KiB for the other fields. */
const resourceBodyLimitBytes = 3 * 4 * Math.ceil(resourceMaxBytes / 3) + 64 * 1024;
const adminToken = 'battery-admin-token-0123456789abcdef';
const classTimeoutMs = 120_000;

interface BatterySystem extends RunningSystem {
  baseUrl: string;
  /** What is wrong with the system's processes: none dead, each /healthz answering 200. */
  problems(): Promise<string[]>;
}

async function healthProblem(name: string, url: string): Promise<string | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return res.status === 200 ? undefined : `${name}: /healthz answered ${res.status}`;
  } catch (error) {
    return `${name}: /healthz did not answer (${(error as Error).message})`;
  }
}

async function startBatterySystem(mode: SystemMode): Promise<BatterySystem> {
  if (mode === 'distributed') {
    const services = serviceStarters.map((start) => processNameOf(start)!);
    const system = await startDistributed({ services, adminToken, env: batteryEnv });
    return {
      ...system,
      baseUrl: system.api.baseUrl,
      problems: async () => {
        const found = await Promise.all(
          [...system.processes.values()].map(async (p) => {
            if (!p.running) return `${p.name} is not running (${p.failure ?? 'no failure recorded'}); its last output:\n${p.output()}`;
            return healthProblem(p.name, `http://127.0.0.1:${p.port}/healthz`);
          }),
        );
        return found.filter((problem): problem is string => problem !== undefined);
      },
    };
  }
  // embedded and rabbitmq: every service runs in this process; the gateway's /healthz stands for it,
  // and this process's Object.prototype shows whether a body polluted it.
  const system = await startSystem(mode, batteryEnv);
  return {
    ...system,
    baseUrl: system.api.baseUrl,
    problems: async () => {
      const polluted = pollutionMark in Object.prototype ? `Object.prototype.${pollutionMark} was set by a request` : undefined;
      return [await healthProblem('gateway', `${system.api.baseUrl}/healthz`), polluted].filter((p): p is string => p !== undefined);
    },
  };
}

const describeAnswer = (a: HostileAnswer) => `${a.request.label} (${a.request.method} ${a.request.path.slice(0, 120)}) → ${a.status} ${a.excerpt.slice(0, 160)}`;

describe.each(systemModes)('The hostile battery: every route × every hostile class (%s)', (mode) => {
  let startedAt = 0;
  beforeAll(() => {
    startedAt = Date.now(); // before the system starts: the summary's time includes it
  });
  const sys = useStartedSystem(() => startBatterySystem(mode), { organizations: 2, hookTimeoutMs: classTimeoutMs });
  let context: BatteryContext;
  /** The other organization's records as its own listings show them. */
  let otherBefore: string[];
  let sent = 0;

  /** Everything the other organization can read of itself: no class may change it. */
  const otherListings = async (f: BatteryFixtures) => {
    const asOther = { token: f.org.token };
    const paths = [
      ownPath('/organizations/:org/groups.json', f),
      ownPath('/organizations/:org/devices.json', f),
      ownPath('/organizations/:org/forms.json', f),
      ownPath('/organizations/:org/oneshots.json', f),
      ownPath('/api/forms/:form/destinations.json', f),
      '/api/resources.json',
    ];
    const answers = await Promise.all(paths.map(async (path) => `${path} ${(await sys.api.get(path, asOther)).text}`));
    const tokens = await sys.api.get(ownPath('/admin/organizations/:org/tokens', f), { bearer: sys.adminToken });
    return [...answers, tokens.text];
  };

  beforeAll(async () => {
    const [ownOrg, otherOrg] = sys.orgs;
    const own = await createBatteryFixtures(sys.api, ownOrg!, sys.adminToken);
    const other = await createBatteryFixtures(sys.api, otherOrg!, sys.adminToken);
    context = { own, other, adminToken: sys.adminToken, bodyLimitBytes, resourceBodyLimitBytes };
    otherBefore = await otherListings(other);
  }, classTimeoutMs);

  afterAll(() => {
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.info(`hostile battery (${mode}): ${sent} requests, ${hostileClasses.length} classes × ${routes.length} routes, ${seconds} s with start and fixtures`);
  });

  it.each(hostileClasses.map((hostile) => [hostile.name, hostile] as const))(
    '%s: no 5xx, every request answered, every process alive, the other organization untouched',
    async (_name, hostile) => {
      const requests = routes.flatMap((r) => hostile.requests(r, context));
      expect(requests.length).toBeGreaterThan(0);
      const answers = await sendAllHostile(sys.running.baseUrl, requests);
      sent += answers.length;

      const serverErrors = answers.filter((a) => typeof a.status !== 'number' || a.status >= 500).map(describeAnswer);
      // Only a forged credential may be refused: anything else means the battery stopped reaching the routes.
      const unauthorized = answers.filter((a) => a.status === 401 && !a.request.label.includes('credential')).map(describeAnswer);
      const processProblems = await sys.running.problems();
      const otherChanged = (await otherListings(context.other)).filter((listing, i) => listing !== otherBefore[i]);
      const classProblems = hostile.check?.(answers) ?? [];
      expect({ serverErrors, unauthorized, processProblems, otherChanged, classProblems }).toEqual({
        serverErrors: [],
        unauthorized: [],
        processProblems: [],
        otherChanged: [],
        classProblems: [],
      });
    },
    classTimeoutMs,
  );

  // Last, so every class has had its go at the organization's records first.
  it("the organization's XML listings still parse (fast-xml-parser's validator)", async () => {
    const unparseable: string[] = [];
    for (const path of xmlListings.map((listing) => ownPath(listing, context.own))) {
      const res = await sys.api.get(path, { token: context.own.org.token });
      if (res.status !== 200) unparseable.push(`${path}: ${res.status} ${res.text.slice(0, 200)}`);
      const valid = XMLValidator.validate(res.text);
      if (valid !== true) unparseable.push(`${path}: ${valid.err.code} ${valid.err.msg} (line ${valid.err.line})`);
    }
    expect(unparseable).toEqual([]);
  });
});
