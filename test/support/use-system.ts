import type { Bus } from '@formcast/bus';
import type { Logger, ServiceStarter } from '@formcast/platform';
import type { ApiClient } from './api-client';
import { createOrganization, type TestOrganization } from './fixtures';
import { createTemplate, type TestTemplate } from './push-fixtures';
import { startSystem, type RunningSystem, type SystemMode } from './start-system';

export interface SuiteSetup<N extends number = number> {
  /** Organizations created once the system runs, in order (default none). */
  organizations?: N;
  /** A template (form definition) created in the first organization. */
  template?: object;
  /** Time for starting and for stopping, each (default 120 s). */
  hookTimeoutMs?: number;
}

export interface UseSystemOptions<N extends number = number> extends SuiteSetup<N> {
  /** Settings of the suite (BODY_LIMIT_BYTES, …), as for startSystem. */
  env?: Record<string, string>;
  starters?: ServiceStarter<Bus>[];
  logger?: Logger;
}

/** `N` times `T`: `organizations: 2` gives two organizations the type checker knows of. */
type Tuple<N extends number, T, Built extends T[] = []> = number extends N
  ? T[]
  : Built['length'] extends N
    ? Built
    : Tuple<N, T, [...Built, T]>;

/** What a suite's tests reach; read it inside tests and hooks declared after the call. */
export interface SystemUnderTest<S extends RunningSystem = RunningSystem, N extends number = number> {
  readonly running: S;
  readonly api: ApiClient;
  readonly adminToken: string;
  /** The organizations asked for, in order. */
  readonly orgs: Readonly<Tuple<N, TestOrganization>>;
  /** The first of them: the suite's organization. */
  readonly org: TestOrganization;
  /** The template asked for, in the first organization. */
  readonly template: TestTemplate;
}

/**
 * The set-up of an end-to-end suite in one call: registers the beforeAll that starts the
 * system in `mode` and creates the suite's organizations (and template), and the afterAll
 * that stops it. A suite's own beforeAll declared after this call runs after it.
 */
export function useSystem<N extends number = 0>(mode: SystemMode, options: UseSystemOptions<N> = {}): SystemUnderTest<RunningSystem, N> {
  const { env, starters, logger, ...setup } = options;
  return useStartedSystem(() => startSystem(mode, env, { starters, logger }), setup);
}

/** useSystem for a system the suite starts its own way (extra peers, a publisher…). */
export function useStartedSystem<S extends RunningSystem, N extends number = 0>(
  start: () => Promise<S>,
  setup: SuiteSetup<N> = {},
): SystemUnderTest<S, N> {
  // Not jest's 30 s: six processes of a distributed system took 18–24 s to be ready on a
  // loaded 2-core machine, and a start that overruns fails every test of the suite.
  const hookTimeoutMs = setup.hookTimeoutMs ?? 120_000;
  let running: S | undefined;
  let ready: { running: S; orgs: TestOrganization[]; template?: TestTemplate } | undefined;

  beforeAll(async () => {
    running = await start();
    const orgs: TestOrganization[] = [];
    for (let n = 0; n < (setup.organizations ?? 0); n += 1) {
      orgs.push(await createOrganization(running.api, running.adminToken));
    }
    let template: TestTemplate | undefined;
    if (setup.template !== undefined) {
      if (orgs[0] === undefined) throw new Error('A template needs an organization (useSystem option `organizations`)');
      template = await createTemplate(running.api, orgs[0], setup.template);
    }
    ready = { running, orgs, template };
  }, hookTimeoutMs);
  afterAll(() => running?.stop(), hookTimeoutMs);

  const started = () => {
    if (ready === undefined) throw new Error('The system is not running: read it inside a test or a hook declared after useSystem');
    return ready;
  };
  return {
    get running() {
      return started().running;
    },
    get api() {
      return started().running.api;
    },
    get adminToken() {
      return started().running.adminToken;
    },
    get orgs() {
      return started().orgs as Tuple<N, TestOrganization>;
    },
    get org() {
      const [first] = started().orgs;
      if (first === undefined) throw new Error('No organization was asked for (useSystem option `organizations`)');
      return first;
    },
    get template() {
      const { template } = started();
      if (template === undefined) throw new Error('No template was asked for (useSystem option `template`)');
      return template;
    },
  };
}
