import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { parseSettings, settingsSchema } from '@formcast/platform';

/**
 * Offline checks of what deploys Formcast (no Docker engine or cluster runs here): the
 * Dockerfile, docker-compose.yml and k8s/ are parsed and held to the structure they need,
 * and every setting they give is one the processes know, with a value they accept.
 */

const root = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Every process that runs alone: a folder under services/ with src/main.ts (embedded is `npm start`). */
const processes = readdirSync(join(root, 'services'))
  .filter((name) => name !== 'embedded' && existsSync(join(root, 'services', name, 'src', 'main.ts')))
  .sort();
const services = processes.filter((name) => name !== 'gateway');
/** Services with a store of their own in MongoDB (when MONGO_URL is set). */
const withMongoStore = services.filter((name) => readdirSync(join(root, 'services', name, 'src', 'store')).some((file) => file.startsWith('mongo-')));
const knownSettings = new Set(Object.keys(settingsSchema.shape));
const mainOf = (name: string) => `services/${name}/dist/main.js`;

const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
if (!kubectl) console.warn('k8s/: `kubectl kustomize` checks skipped: no kubectl on PATH');

/** Addresses no policy opens to the internet rules: private, CGNAT, loopback and link-local (cloud metadata). */
const privateIpv4 = ['10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16'];
const privateIpv6 = ['::1/128', 'fc00::/7', 'fe80::/10'];

it('finds every process the deploy files must run', () => {
  expect(processes).toEqual(['delivery', 'directory', 'gateway', 'notifier', 'push', 'resources']);
  expect(withMongoStore).toEqual(['delivery', 'directory', 'push', 'resources']);
});

/** Every process starts through this launcher: the one place of its Node flags and environment (docs/performance.md). */
const launcher = 'bin/formcast-node';
/** How the image, compose and Kubernetes run a process (absolute: the image's WORKDIR is /app). */
const imageCommand = (name: string) => [`/app/${launcher}`, '--enable-source-maps', mainOf(name)];

describe('bin/formcast-node', () => {
  it('runs node with the flags and environment every process needs, passing its arguments on', () => {
    const probe = spawnSync(join(root, launcher), ['-e', 'console.log(JSON.stringify([process.execArgv, process.env.MALLOC_MMAP_THRESHOLD_, process.argv.slice(1)]))', 'an argument'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(probe.status).toBe(0);
    const [execArgv, threshold, argv] = JSON.parse(probe.stdout) as [string[], string, string[]];
    expect(execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=4']));
    expect(threshold).toBe('131072');
    expect(argv).toEqual(['an argument']);
  });

  // A stand-in `node` first on PATH answers the version probe as the Node named, and prints
  // the arguments it is started with (so a start that goes on says so, and runs nothing).
  const withNode = (version: string, command: string, args: string[], env: Record<string, string> = {}) => {
    const fakeBin = mkdtempSync(join(tmpdir(), 'fake-node-'));
    writeFileSync(join(fakeBin, 'node'), `#!/bin/sh
if [ "$1" = "-p" ]; then echo ${version}; else echo "node $@"; fi
`, { mode: 0o755 });
    const probe = spawnSync(join(root, command), args, {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: `${fakeBin}:${process.env.PATH}`, ...env },
    });
    rmSync(fakeBin, { recursive: true });
    return probe;
  };

  it.each(['20.20.2', '22.14.0', '18.20.8'])('refuses Node %s in one line naming the Node it needs', (version) => {
    const probe = withNode(version, launcher, ['main.js']);
    expect(probe.status).toBe(1);
    expect(probe.stdout).toBe('');
    expect(probe.stderr.trim().split('\n')).toEqual([
      `Formcast needs Node.js 22.15 or newer (24 recommended, see .nvmrc); this is Node ${version}.`,
    ]);
  });

  it.each(['22.15.0', '22.23.3', '24.21.0', '26.12.1'])('starts on Node %s with its flags only', (version) => {
    const probe = withNode(version, launcher, ['main.js']);
    expect(probe.status).toBe(0);
    expect(probe.stdout.trim()).toBe('node --max-semi-space-size=4 main.js');
  });

  it('npm start (bin/start) refuses an old Node before building or generating anything', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-data-'));
    const probe = withNode('20.20.2', 'bin/start', [], { DATA_DIR: dataDir });
    const left = readdirSync(dataDir);
    rmSync(dataDir, { recursive: true });
    expect(probe.status).toBe(1);
    expect(probe.stdout).toBe(''); // bin/build would have said "Building Formcast…"
    expect(probe.stderr.trim()).toBe('Formcast needs Node.js 22.15 or newer (24 recommended, see .nvmrc); this is Node 20.20.2.');
    expect(left).toEqual([]); // no admin token
  });
});

const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const scriptOf = (name: string) => scripts[name] ?? '';

/** The release: the version every workspace carries, and the Formcast image's tag (`formcast:<release>`). */
const workspaceVersions = ['packages', 'services'].flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((name) => existsSync(join(root, dir, name, 'package.json')))
    .map((name) => (JSON.parse(read(`${dir}/${name}/package.json`)) as { version?: string }).version),
);
const release = workspaceVersions[0] ?? '';

it('gives every workspace the one release version', () => {
  expect(new Set(workspaceVersions)).toEqual(new Set([release]));
});

describe('root package.json', () => {

  it.each(processes)('has start:%s, running that process from dist/ through the launcher', (name) => {
    expect(scripts[`start:${name}`]).toBe(`${launcher} ${mainOf(name)}`);
  });

  it('starts embedded mode through the launcher too, as the process npm started (exec: a SIGTERM reaches the server)', () => {
    expect(scripts['start']).toBe('exec bin/start');
    expect(read('bin/start')).toMatch(new RegExp(`^bin/build\\nexec ${launcher} services/embedded/dist/main\\.js$`, 'm'));
  });

  it('spells no Node flag or allocator setting outside the launcher', () => {
    expect(Object.values(scripts).join('\n')).not.toMatch(/MALLOC_|--max-semi-space-size|NODE_OPTIONS/);
  });
});

describe('the bench', () => {
  it('starts every Formcast process through the launcher, and spells no flag of its own', () => {
    const systems = read('bench/src/systems.ts');
    expect(systems).toMatch(/startNode\(name, script, (env|\{ \.\.\.env, \.\.\.config\.serviceEnv \}), \{ formcast: true \}\)/);
    expect(read('bench/src/children.ts')).toContain(`'${launcher}'`);
    for (const file of readdirSync(join(root, 'bench/src'))) {
      if (file.endsWith('.ts')) expect(read(`bench/src/${file}`)).not.toMatch(/MALLOC_MMAP|--max-semi-space-size/);
    }
  });
});

describe('Dockerfile', () => {
  // Instructions with their continuation lines joined, comments dropped.
  const instructions = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Array<{ from: string; name: string; lines: string[] }> = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1]!, name: from[2] ?? '', lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  const finalStage = stages.at(-1)!;
  const nodeImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'))?.[1];

  it('builds in one stage and runs from another, both on an LTS Node image', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(stages.every((s) => s.from === '${NODE_IMAGE}')).toBe(true);
    // Even majors are Node's LTS lines.
    const major = Number(/^node:(\d+)/.exec(nodeImage ?? '')?.[1]);
    expect(major % 2).toBe(0);
    expect(major).toBeGreaterThanOrEqual(24);
    // Debian 13 (trixie): the slim image of the Debian release Node's image is built on now.
    expect(nodeImage).toMatch(/^node:\d+\.\d+\.\d+-trixie-slim@sha256:[0-9a-f]{64}$/);
  });

  it('installs build tools and dev dependencies only in the build stage', () => {
    const build = stages[0]!.lines.join('\n');
    expect(build).toMatch(/apt-get install[^\n]*\bg\+\+/);
    expect(build).toMatch(/RUN npm run build/); // tsc -b and the console, as npm start builds
    expect(build).toMatch(/npm prune --omit=dev/);
    const runtime = finalStage.lines.join('\n');
    expect(runtime).not.toMatch(/apt-get|npm (install|ci)|\bg\+\+|python3/);
    expect(finalStage.lines.filter((l) => l.startsWith('COPY'))).toEqual(['COPY --from=build /out/ ./']);
  });

  it('copies every workspace manifest before installing, so none is missing from the install', () => {
    const workspaces = ['packages', 'services'].flatMap((dir) =>
      readdirSync(join(root, dir)).filter((name) => existsSync(join(root, dir, name, 'package.json'))).map((name) => `${dir}/${name}`),
    );
    const copied = stages[0]!.lines.filter((l) => /^COPY \S+\/package\.json /.test(l)).map((l) => l.split(/\s+/)[1]!.replace(/\/package\.json$/, ''));
    expect(copied.sort()).toEqual(workspaces.sort());
  });

  it('runs as a non-root user, the service chosen by the command', () => {
    const user = finalStage.lines.filter((l) => l.startsWith('USER ')).at(-1);
    expect(user).toBeDefined();
    const [uid] = user!.slice(5).trim().split(':');
    expect(uid).toMatch(/^[1-9]\d*$/); // numeric, so runAsNonRoot can verify it
    expect(finalStage.lines.find((l) => l.startsWith('CMD '))).toContain('exec /app/bin/formcast-node --enable-source-maps \\"services/${SERVICE}/dist/main.js\\"');
  });

  it('ships the launcher, and sets no Node flag or allocator setting of its own', () => {
    expect(stages[0]!.lines).toContain('COPY bin bin');
    expect(stages[0]!.lines.join('\n')).toMatch(/cp -a package\.json node_modules bin \/out\//);
    expect(finalStage.lines.join('\n')).not.toMatch(/NODE_OPTIONS|MALLOC_|--max-semi-space-size/);
  });

  it('leaves installed and built output out of the context (.dockerignore)', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    // A *.tsbuildinfo copied without dist/ would make `tsc -b` in the image skip the build.
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '**/*.tsbuildinfo', '.env', '.git']));
  });
});

// --- docker-compose.yml ------------------------------------------------------------------

const healthcheckSchema = z.object({
  test: z.array(z.string()).min(2),
  interval: z.string(),
  timeout: z.string(),
  retries: z.number().int().positive(),
});
const composeServiceSchema = z.object({
  image: z.string().min(1),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  healthcheck: healthcheckSchema,
  depends_on: z.record(z.string(), z.object({ condition: z.enum(['service_healthy', 'service_started', 'service_completed_successfully']) })).optional(),
  ports: z.array(z.string()).optional(),
  stop_grace_period: z.string().optional(),
});
const composeSchema = z.object({ services: z.record(z.string(), composeServiceSchema) });

/** `${VAR:-default}` and `${VAR}` as compose would resolve them with nothing set. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_, __, fallback: string | undefined) => fallback ?? '');
}

const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1] ?? Number.NaN);

describe('docker-compose.yml', () => {
  const compose = composeSchema.parse(YAML.parse(read('docker-compose.yml'), { merge: true }));
  const composeServices = compose.services;

  it('runs RabbitMQ, a MongoDB replica set (initiated by its health check) and Redis, each with a health check', () => {
    expect(composeServices.rabbitmq?.image).toMatch(/^rabbitmq:/);
    expect(composeServices.redis?.image).toMatch(/^redis:/);
    const mongo = composeServices.mongodb!;
    expect(mongo.image).toMatch(/^mongo:/);
    expect(mongo.command).toEqual(expect.arrayContaining(['--replSet']));
    expect(mongo.healthcheck.test.join(' ')).toMatch(/rs\.initiate\(/);
  });

  it.each(processes)('runs %s from the one image, with its command, health check and start order', (name) => {
    const service = composeServices[name]!;
    expect(service).toBeDefined();
    expect(service.image).toBe(composeServices.gateway!.image);
    expect(service.command).toEqual(imageCommand(name));

    const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(v)]));
    const unknown = Object.keys(env).filter((key) => !knownSettings.has(key));
    expect(unknown).toEqual([]);
    const settings = parseSettings(env); // the values (with their defaults) are accepted
    expect(settings.AMQP_URL).toMatch(/@rabbitmq:5672/);
    if (withMongoStore.includes(name)) expect(settings.MONGO_URL).toMatch(/^mongodb:\/\/mongodb:27017\/.*replicaSet=/);
    if (name === 'notifier') expect(settings.REDIS_URL).toBe('redis://redis:6379');
    if (name === 'gateway') expect(settings.ADMIN_TOKEN).toBeDefined();

    // The probe asks the port this process answers on: PORT for the gateway, HEALTH_PORT otherwise.
    const port = name === 'gateway' ? settings.PORT : settings.HEALTH_PORT;
    expect(service.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);

    // It starts after what it needs is healthy.
    const needs = Object.entries(service.depends_on ?? {});
    expect(needs.every(([, need]) => need.condition === 'service_healthy')).toBe(true);
    const needed = needs.map(([dependency]) => dependency);
    expect(needed).toContain('rabbitmq');
    if (withMongoStore.includes(name)) expect(needed).toContain('mongodb');
    if (name === 'notifier') expect(needed).toContain('redis');
    if (name === 'gateway') expect(needed).toEqual(expect.arrayContaining(services));

    // Compose waits this long after SIGTERM: more than the process's own grace.
    expect(seconds(service.stop_grace_period ?? '10s') * 1000).toBeGreaterThan(settings.SHUTDOWN_GRACE_MS);
  });

  it("serves the API on one published port: the gateway's", () => {
    const published = Object.entries(composeServices).filter(([name, s]) => s.ports && processes.includes(name));
    expect(published.map(([name]) => name)).toEqual(['gateway']);
    expect(composeServices.gateway!.ports!.map(interpolate)).toEqual(['127.0.0.1:3000:3000']);
  });

  it('names only services that exist in depends_on, without a cycle', () => {
    const order: string[] = [];
    const visit = (name: string, path: string[]) => {
      expect(path).not.toContain(name);
      expect(composeServices[name]).toBeDefined();
      if (order.includes(name)) return;
      for (const dependency of Object.keys(composeServices[name]!.depends_on ?? {})) visit(dependency, [...path, name]);
      order.push(name);
    };
    for (const name of Object.keys(composeServices)) visit(name, []);
    expect(order.indexOf('gateway')).toBe(order.length - 1);
  });
});

// --- k8s/ --------------------------------------------------------------------------------

const labelsSchema = z.record(z.string(), z.string());
const quantity = z.union([z.string(), z.number()]);
const probeSchema = z.object({
  httpGet: z.object({ path: z.string(), port: z.union([z.string(), z.number()]) }),
  periodSeconds: z.number().int().positive().optional(),
  timeoutSeconds: z.number().int().positive().optional(),
  failureThreshold: z.number().int().positive().optional(),
});
const containerSchema = z.object({
  name: z.string(),
  image: z.string(),
  command: z.array(z.string()),
  envFrom: z.array(z.object({ configMapRef: z.object({ name: z.string() }).optional(), secretRef: z.object({ name: z.string() }).optional() })),
  ports: z.array(z.object({ name: z.string(), containerPort: z.number().int() })).min(1),
  readinessProbe: probeSchema,
  livenessProbe: probeSchema,
  startupProbe: probeSchema.optional(),
  lifecycle: z.object({ preStop: z.object({ exec: z.object({ command: z.array(z.string()) }) }) }).optional(),
  resources: z.object({
    requests: z.object({ cpu: quantity, memory: quantity }),
    limits: z.object({ cpu: quantity, memory: quantity }),
  }),
  securityContext: z.object({
    allowPrivilegeEscalation: z.literal(false),
    readOnlyRootFilesystem: z.boolean().optional(),
    capabilities: z.object({ drop: z.array(z.string()) }).optional(),
  }),
});
const deploymentSchema = z.object({
  apiVersion: z.literal('apps/v1'),
  kind: z.literal('Deployment'),
  metadata: z.object({ name: z.string(), labels: labelsSchema.optional() }),
  spec: z.object({
    replicas: z.number().int().positive().optional(),
    selector: z.object({ matchLabels: labelsSchema }),
    template: z.object({
      metadata: z.object({ labels: labelsSchema }),
      spec: z.object({
        terminationGracePeriodSeconds: z.number().int().positive(),
        securityContext: z.object({ runAsNonRoot: z.literal(true), runAsUser: z.number().int().positive().optional() }),
        containers: z.array(containerSchema).length(1),
      }),
    }),
  }),
});
const serviceSchema = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Service'),
  metadata: z.object({ name: z.string() }),
  spec: z.object({ selector: labelsSchema, ports: z.array(z.object({ port: z.number().int(), targetPort: z.union([z.string(), z.number()]) })).min(1) }),
});
const hpaSchema = z.object({
  apiVersion: z.literal('autoscaling/v2'),
  kind: z.literal('HorizontalPodAutoscaler'),
  metadata: z.object({ name: z.string() }),
  spec: z.object({
    scaleTargetRef: z.object({ apiVersion: z.literal('apps/v1'), kind: z.literal('Deployment'), name: z.string() }),
    minReplicas: z.number().int().positive(),
    maxReplicas: z.number().int().positive(),
    metrics: z.array(z.object({ type: z.literal('Resource'), resource: z.object({ name: z.enum(['cpu', 'memory']) }) })).min(1),
  }),
});
const pdbSchema = z.object({
  apiVersion: z.literal('policy/v1'),
  kind: z.literal('PodDisruptionBudget'),
  metadata: z.object({ name: z.string() }),
  spec: z.object({ selector: z.object({ matchLabels: labelsSchema }), minAvailable: z.number().int().optional(), maxUnavailable: z.number().int().optional() }),
});
const configMapSchema = z.object({ kind: z.literal('ConfigMap'), metadata: z.object({ name: z.string() }), data: z.record(z.string(), z.string()) });
const secretSchema = z.object({ kind: z.literal('Secret'), metadata: z.object({ name: z.string() }), stringData: z.record(z.string(), z.string()) });
const kustomizationSchema = z.object({
  kind: z.literal('Kustomization'),
  resources: z.array(z.string()),
  images: z.array(z.object({ name: z.string(), newName: z.string().optional(), newTag: z.string().optional() })),
});

const networkPeerSchema = z.object({ ipBlock: z.object({ cidr: z.string(), except: z.array(z.string()).optional() }).optional() }).strict();
const networkPortsSchema = z.array(z.object({ port: z.union([z.string(), z.number()]), protocol: z.enum(['TCP', 'UDP', 'SCTP']).optional() }).strict());
const networkPolicySchema = z.object({
  apiVersion: z.literal('networking.k8s.io/v1'),
  kind: z.literal('NetworkPolicy'),
  metadata: z.object({ name: z.string() }),
  spec: z.object({
    podSelector: z.object({ matchLabels: labelsSchema }),
    policyTypes: z.array(z.enum(['Ingress', 'Egress'])),
    ingress: z.array(z.object({ from: z.array(networkPeerSchema).optional(), ports: networkPortsSchema.optional() }).strict()).optional(),
    egress: z.array(z.object({ to: z.array(networkPeerSchema).optional(), ports: networkPortsSchema.optional() }).strict()).optional(),
  }).strict(),
});
const devDeploymentSchema = deploymentSchema.extend({
  spec: deploymentSchema.shape.spec.extend({
    strategy: z.object({ type: z.string() }),
    template: z.object({
      metadata: z.object({ labels: labelsSchema }),
      spec: deploymentSchema.shape.spec.shape.template.shape.spec.extend({
        securityContext: z.object({ runAsNonRoot: z.literal(true), runAsUser: z.number().int().positive(), runAsGroup: z.number().int().positive(), fsGroup: z.number().int().positive() }),
        containers: z.array(
          containerSchema.extend({
            envFrom: z.array(z.object({ configMapRef: z.object({ name: z.string() }).optional(), secretRef: z.object({ name: z.string(), optional: z.boolean().optional() }).optional() })),
            volumeMounts: z.array(z.object({ name: z.string(), mountPath: z.string() })),
          }),
        ).length(1),
        volumes: z.array(z.object({ name: z.string(), persistentVolumeClaim: z.object({ claimName: z.string() }).optional() })),
      }),
    }),
  }),
});

type Manifest = { apiVersion?: string; kind?: string; metadata?: { name?: string } };

describe('k8s/', () => {
  const files = readdirSync(join(root, 'k8s')).filter((file) => file.endsWith('.yaml')).sort();
  const kustomization = kustomizationSchema.parse(YAML.parse(read('k8s/kustomization.yaml')));
  const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
    YAML.parseAllDocuments(read(`k8s/${file}`)).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`k8s/${file}: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest;
    }),
  );
  const ofKind = <T extends z.ZodTypeAny>(kind: string, schema: T): Array<z.infer<T>> =>
    manifests.filter((m) => m.kind === kind).map((m) => {
      const parsed = schema.safeParse(m);
      if (!parsed.success) throw new Error(`${kind} ${m.metadata?.name}: ${JSON.stringify(parsed.error.issues[0])}`);
      return parsed.data;
    });
  const deployments = ofKind('Deployment', deploymentSchema);
  const k8sServices = ofKind('Service', serviceSchema);
  const hpas = ofKind('HorizontalPodAutoscaler', hpaSchema);
  const pdbs = ofKind('PodDisruptionBudget', pdbSchema);
  const [configMap] = ofKind('ConfigMap', configMapSchema);
  // Not applied: the deploy supplies the Secret; the example shows its name and keys.
  const secret = secretSchema.parse(YAML.parse(read('k8s/examples/secrets.example.yaml')));
  const env = { ...configMap!.data, ...secret.stringData };
  const settings = parseSettings(env);

  it('lists every manifest in kustomization.yaml, each with apiVersion, kind and name', () => {
    expect([...kustomization.resources, 'kustomization.yaml'].sort()).toEqual(files);
    for (const manifest of manifests) {
      expect(manifest).toEqual(expect.objectContaining({ apiVersion: expect.any(String), kind: expect.any(String), metadata: expect.objectContaining({ name: expect.any(String) }) }));
    }
    const ids = manifests.map((m) => `${m.kind}/${m.metadata!.name}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('applies no Secret: the deploy supplies formcast-secrets, whose example is outside the applied set', () => {
    expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
    expect(kustomization.resources.filter((file) => file.includes('example'))).toEqual([]);
    expect(secret.metadata.name).toBe('formcast-secrets');
  });

  it('keeps settings in a ConfigMap and secrets in a Secret, every key a setting the processes accept', () => {
    expect(Object.keys(env).filter((key) => !knownSettings.has(key))).toEqual([]);
    expect(Object.keys(secret.stringData).sort()).toEqual(['ADMIN_TOKEN', 'AMQP_URL', 'FCM_SERVICE_ACCOUNT', 'MONGO_URL', 'REDIS_URL']);
    expect(Object.keys(configMap!.data)).not.toEqual(expect.arrayContaining(['ADMIN_TOKEN']));
    expect(settings.AMQP_URL).toContain('heartbeat=');
  });

  it.each(processes)('runs %s as a Deployment with probes, resources, a non-root user and a graceful stop', (name) => {
    const deployment = deployments.find((d) => d.metadata.name === name)!;
    expect(deployment).toBeDefined();
    const { spec } = deployment;
    expect(matches(spec.selector.matchLabels, spec.template.metadata.labels)).toBe(true);
    const pod = spec.template.spec;
    const container = pod.containers[0]!;
    expect(container.command).toEqual(imageCommand(name));
    expect(kustomization.images.map((i) => i.name)).toContain(container.image);
    expect(container.envFrom.map((e) => e.configMapRef?.name ?? e.secretRef?.name).sort()).toEqual([configMap!.metadata.name, secret.metadata.name].sort());
    expect(pod.securityContext.runAsUser ?? 1000).not.toBe(0);

    // Probes on the port the process answers on: the gateway's HTTP port, else HEALTH_PORT.
    const portName = name === 'gateway' ? 'http' : 'health';
    const port = container.ports.find((p) => p.name === portName);
    expect(port?.containerPort).toBe(name === 'gateway' ? settings.PORT : settings.HEALTH_PORT);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: portName });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: portName });

    const { requests, limits } = container.resources;
    expect(cpuMillis(requests.cpu)).toBeLessThanOrEqual(cpuMillis(limits.cpu));
    expect(bytes(requests.memory)).toBeLessThanOrEqual(bytes(limits.memory));

    // Kubernetes waits this long after SIGTERM (preStop included) before SIGKILL: the process's grace must fit.
    const preStopSeconds = Number(container.lifecycle?.preStop.exec.command.join(' ').match(/^sleep (\d+)$/)?.[1] ?? 0);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(settings.SHUTDOWN_GRACE_MS + preStopSeconds * 1000);
    expect(configMap!.data.SHUTDOWN_GRACE_MS).toBeDefined(); // set where the grace periods are, not left to a default

    // A Service selects exactly its pods, on a port the container has.
    const service = k8sServices.find((s) => s.metadata.name === name)!;
    expect(service).toBeDefined();
    expect(matches(service.spec.selector, spec.template.metadata.labels)).toBe(true);
    const others = deployments.filter((d) => d !== deployment && matches(service.spec.selector, d.spec.template.metadata.labels));
    expect(others).toEqual([]);
    expect(container.ports.map((p) => p.name)).toContain(service.spec.ports[0]!.targetPort);

    // A PodDisruptionBudget that still lets a drain proceed.
    const pdb = pdbs.find((p) => matches(p.spec.selector.matchLabels, spec.template.metadata.labels))!;
    expect(pdb).toBeDefined();
    const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === name);
    const fewestReplicas = hpa?.spec.minReplicas ?? spec.replicas ?? 1;
    expect(pdb.spec.minAvailable ?? 0).toBeLessThan(fewestReplicas);
  });

  it('scales gateway, push and delivery with HorizontalPodAutoscalers on Deployments that exist and leave replicas to them', () => {
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['delivery', 'gateway', 'push']);
    for (const hpa of hpas) {
      const target = deployments.find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name);
      expect(target).toBeDefined();
      expect(target!.spec.replicas).toBeUndefined();
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    }
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(processes);
  });

  (kubectl ? it : it.skip)('builds with kustomize (kubectl kustomize k8s), every resource in the namespace, no Secret, the release image', () => {
    const built = kustomizeBuild('k8s');
    expect(built.length).toBe(manifests.length);
    expect(built.filter((m) => m.kind !== 'Namespace').every((m) => m.metadata.namespace === 'formcast')).toBe(true);
    expect(built.filter((m) => m.kind === 'Secret')).toEqual([]);
    expect(built.filter((m) => m.kind === 'NetworkPolicy').length).toBe(processes.length + 1);
    expect(new Set(imagesOf(built))).toEqual(new Set([`formcast:${release}`]));
  });

  describe('NetworkPolicy', () => {
    const policies = ofKind('NetworkPolicy', networkPolicySchema);
    const podLabels = (name: string) => deployments.find((d) => d.metadata.name === name)!.spec.template.metadata.labels;
    const selecting = (name: string) => policies.filter((p) => matches(p.spec.podSelector.matchLabels, podLabels(name)));

    it('isolates every Formcast pod both ways by default', () => {
      const defaultDeny = policies.filter((p) => p.spec.ingress === undefined && p.spec.egress === undefined);
      expect(defaultDeny.length).toBe(1);
      expect(defaultDeny[0]!.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'formcast' });
      expect([...defaultDeny[0]!.spec.policyTypes].sort()).toEqual(['Egress', 'Ingress']);
      for (const name of processes) expect(selecting(name)).toContain(defaultDeny[0]);
    });

    it('opens each process by a policy of its own, selecting its pods only', () => {
      const own = policies.filter((p) => p.spec.ingress !== undefined || p.spec.egress !== undefined);
      for (const policy of own) {
        const selected = deployments.filter((d) => matches(policy.spec.podSelector.matchLabels, d.spec.template.metadata.labels));
        expect(selected.map((d) => d.metadata.name)).toHaveLength(1);
        expect([...policy.spec.policyTypes].sort()).toEqual(['Egress', 'Ingress']);
      }
      expect(own.map((p) => deployments.find((d) => matches(p.spec.podSelector.matchLabels, d.spec.template.metadata.labels))!.metadata.name).sort()).toEqual(processes);
    });

    it.each(processes)('lets only the gateway take connections: %s', (name) => {
      const ingress = selecting(name).flatMap((p) => p.spec.ingress ?? []);
      if (name !== 'gateway') {
        expect(ingress).toEqual([]);
        return;
      }
      // From anywhere (the Ingress or load balancer), on the container's HTTP port only.
      expect(ingress).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }] }]);
      const container = deployments.find((d) => d.metadata.name === 'gateway')!.spec.template.spec.containers[0]!;
      expect(container.ports.map((p) => p.name)).toContain('http');
    });

    const dnsAndBroker = ['53/TCP', '53/UDP', '5671/TCP', '5672/TCP'];
    const expectedEgress: Record<string, { anywhere: string[]; publicOnly: string[] }> = {
      gateway: { anywhere: dnsAndBroker, publicOnly: [] },
      directory: { anywhere: [...dnsAndBroker, '27017/TCP'], publicOnly: [] },
      resources: { anywhere: [...dnsAndBroker, '27017/TCP'], publicOnly: [] },
      push: { anywhere: [...dnsAndBroker, '27017/TCP'], publicOnly: [] },
      // FCM: Google's APIs over HTTPS.
      notifier: { anywhere: [...dnsAndBroker, '6379/TCP'], publicOnly: ['443/TCP'] },
      // Webhooks: receivers on any port.
      delivery: { anywhere: [...dnsAndBroker, '27017/TCP'], publicOnly: ['any'] },
    };

    it.each(processes)('lets %s reach DNS and its own backing services (RabbitMQ, MongoDB, Redis), the internet only where it must', (name) => {
      const egress = selecting(name).flatMap((p) => p.spec.egress ?? []);
      const portsOf = (rule: (typeof egress)[number]) => (rule.ports ?? []).length === 0 ? ['any'] : rule.ports!.map((p) => `${p.port}/${p.protocol ?? 'TCP'}`);
      const anywhere = egress.filter((rule) => rule.to === undefined).flatMap(portsOf).sort();
      const publicOnly = egress.filter((rule) => rule.to !== undefined).flatMap((rule) => {
        // Every destination is the whole internet less private, loopback, link-local (metadata) and CGNAT ranges.
        for (const peer of rule.to!) {
          expect(peer.ipBlock).toBeDefined();
          const { cidr, except = [] } = peer.ipBlock!;
          expect(['0.0.0.0/0', '::/0']).toContain(cidr);
          expect(except).toEqual(expect.arrayContaining(cidr === '0.0.0.0/0' ? privateIpv4 : privateIpv6));
        }
        expect(rule.to!.map((peer) => peer.ipBlock!.cidr).sort()).toEqual(['0.0.0.0/0', '::/0']);
        return portsOf(rule);
      }).sort();
      expect({ anywhere, publicOnly }).toEqual({ anywhere: [...expectedEgress[name]!.anywhere].sort(), publicOnly: expectedEgress[name]!.publicOnly });
    });
  });
});

// --- k8s/overlays/dev ---------------------------------------------------------------------

describe('k8s/overlays/dev', () => {
  const dir = 'k8s/overlays/dev';
  const kustomization = kustomizationSchema.extend({ namespace: z.string() }).parse(YAML.parse(read(`${dir}/kustomization.yaml`)));
  const manifests = kustomization.resources.flatMap((file) => YAML.parseAllDocuments(read(`${dir}/${file}`)).map((doc) => doc.toJS() as Manifest & Record<string, any>));
  const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
  const deployments = ofKind('Deployment').map((m) => devDeploymentSchema.parse(m));
  const [configMap] = ofKind('ConfigMap').map((m) => configMapSchema.parse(m));
  const settings = parseSettings(configMap!.data);

  it('runs the embedded process (npm start) as one Deployment of one replica, replaced by stopping the old first', () => {
    expect(deployments).toHaveLength(1);
    const { spec } = deployments[0]!;
    expect(spec.replicas).toBe(1);
    expect(spec.strategy.type).toBe('Recreate');
    expect(spec.template.spec.containers).toHaveLength(1);
    const container = spec.template.spec.containers[0]!;
    expect(container.command).toEqual([`/app/${launcher}`, '--enable-source-maps', 'services/embedded/dist/main.js']);
    expect(read('bin/start')).toContain('services/embedded/dist/main.js'); // npm start's process
    expect(container.image).toBe('formcast');
    expect(kustomization.images).toEqual([{ name: 'formcast', newName: 'formcast', newTag: release }]);
    expect(Object.keys(configMap!.data).filter((key) => !knownSettings.has(key))).toEqual([]);
    // Embedded defaults: in-process bus, SQLite, badges in SQLite.
    expect([settings.AMQP_URL, settings.MONGO_URL, settings.REDIS_URL]).toEqual([undefined, undefined, undefined]);
  });

  it('keeps DATA_DIR on a PersistentVolumeClaim the process can write as its non-root user', () => {
    const pod = deployments[0]!.spec.template.spec;
    const [claim] = ofKind('PersistentVolumeClaim');
    expect(claim).toBeDefined();
    const volume = pod.volumes.find((v) => v.persistentVolumeClaim?.claimName === claim!.metadata!.name);
    expect(volume).toBeDefined();
    const mount = pod.containers[0]!.volumeMounts.find((m) => m.name === volume!.name);
    expect(mount).toBeDefined();
    expect(`${settings.DATA_DIR}/`.startsWith(`${mount!.mountPath}/`)).toBe(true);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.fsGroup).toBe(pod.securityContext.runAsGroup);
    expect(claim!.spec.accessModes).toEqual(['ReadWriteOnce']);
  });

  it('needs no Secret (the admin token is generated into DATA_DIR), takes one if it exists, probes and stops like the rest', () => {
    expect(ofKind('Secret')).toEqual([]);
    const pod = deployments[0]!.spec.template.spec;
    const container = pod.containers[0]!;
    expect(container.envFrom).toEqual(expect.arrayContaining([{ configMapRef: { name: configMap!.metadata.name } }, { secretRef: { name: 'formcast-secrets', optional: true } }]));
    expect(container.ports).toEqual([{ name: 'http', containerPort: settings.PORT }]);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(settings.SHUTDOWN_GRACE_MS);
    const [service] = ofKind('Service').map((m) => serviceSchema.parse(m));
    expect(matches(service!.spec.selector, deployments[0]!.spec.template.metadata.labels)).toBe(true);
    expect(service!.spec.ports[0]!.targetPort).toBe('http');
  });

  (kubectl ? it : it.skip)('builds with kustomize (kubectl kustomize k8s/overlays/dev) into its own namespace', () => {
    const built = kustomizeBuild(dir);
    expect(built.map((m) => m.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Namespace', 'PersistentVolumeClaim', 'Service']);
    expect(built.filter((m) => m.kind !== 'Namespace').every((m) => m.metadata.namespace === kustomization.namespace)).toBe(true);
    expect(kustomization.namespace).not.toBe('formcast');
    expect(imagesOf(built)).toEqual([`formcast:${release}`]);
  });
});

// --- the release and base images ------------------------------------------------------------

describe('images', () => {
  const baseKustomization = kustomizationSchema.parse(YAML.parse(read('k8s/kustomization.yaml')));
  const compose = YAML.parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { image: string; build?: unknown }> };
  const dockerfile = read('Dockerfile');
  /** Images Formcast runs on or beside: the Dockerfile's base and compose's RabbitMQ, MongoDB and Redis. */
  const baseImages = [
    /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)![1]!,
    ...[...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!).filter((image) => image !== '${NODE_IMAGE}'),
    ...Object.values(compose.services).filter((service) => service.build === undefined).map((service) => service.image),
  ];

  it('tags the Formcast image with the release, the one version of every workspace, in k8s/ and compose', () => {
    expect(release).toMatch(/^\d+\.\d+\.\d+$/);
    expect(baseKustomization.images).toEqual([{ name: 'formcast', newName: 'formcast', newTag: release }]);
    const built = Object.values(compose.services).filter((service) => service.build !== undefined);
    expect(new Set(built.map((service) => interpolate(service.image)))).toEqual(new Set([`formcast:${release}`]));
  });

  it('names every base image by a tag that is not `latest`, a digest well-formed where one is given', () => {
    expect(baseImages.map((image) => image.split(/[:@]/)[0]).sort()).toEqual(['mongo', 'node', 'rabbitmq', 'redis']);
    for (const image of baseImages) {
      const reference = /^([a-z0-9._/-]+):([A-Za-z0-9._-]+)(@sha256:[0-9a-f]{64})?$/.exec(image);
      expect({ image, pinned: reference !== null }).toEqual({ image, pinned: true });
      expect(reference![2]).not.toBe('latest');
    }
  });

  it('pins every base image by digest (name:tag@sha256:…) in the Dockerfile and compose', () => {
    const unpinned = baseImages.filter((image) => !/^[^@\s]+:[^@\s]+@sha256:[0-9a-f]{64}$/.test(image));
    expect(unpinned).toEqual([]);
  });
});

// --- comments ------------------------------------------------------------------------------

it('says nowhere in the deploy files that a file crosses the bus as Base64 (it is an attachment)', () => {
  const files = ['docker-compose.yml', 'Dockerfile', ...listFiles('k8s')];
  const stale = files.filter((file) => /base64/i.test(read(file)));
  expect(stale).toEqual([]);
});

/** Whether a selector's labels are all among `labels`. */
function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function listFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  );
}

/** `kubectl kustomize <dir>` (offline), its documents parsed. */
function kustomizeBuild(dir: string): Array<Manifest & { metadata: { namespace?: string } } & Record<string, any>> {
  const result = spawnSync('kubectl', ['kustomize', join(root, dir)], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return YAML.parseAllDocuments(result.stdout).map((doc) => doc.toJS());
}

/** Every container image of the Deployments in `manifests`. */
function imagesOf(manifests: Array<Record<string, any>>): string[] {
  return manifests.filter((m) => m.kind === 'Deployment').flatMap((m) => (m.spec.template.spec.containers as Array<{ image: string }>).map((c) => c.image));
}

function cpuMillis(value: string | number): number {
  const text = String(value);
  return text.endsWith('m') ? Number(text.slice(0, -1)) : Number(text) * 1000;
}

function bytes(value: string | number): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(String(value));
  if (!match) throw new Error(`Unexpected quantity ${value}`);
  return Number(match[1]) * ({ Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[match[2] ?? ''] ?? 1);
}
