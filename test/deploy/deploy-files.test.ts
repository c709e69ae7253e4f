import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { parseSettings, settingsSchema } from '@formcast/platform';
import { serviceEnvironment, serviceNodeFlags } from '../../bench/src/config';

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

it('finds every process the deploy files must run', () => {
  expect(processes).toEqual(['directory', 'gateway', 'notifier', 'push', 'resources']);
  expect(withMongoStore).toEqual(['directory', 'push', 'resources']);
});

/** The V8 flags every process runs with (README, Performance); the bench's copy must agree. */
const nodeFlags = serviceNodeFlags.join(' ');
/** The environment every process starts with beside its settings (README, Performance), as the bench gives it. */
const environment = Object.entries(serviceEnvironment).map(([name, value]) => `${name}=${value}`);
const environmentPrefix = environment.map((assignment) => `${assignment} `).join('');

describe('root package.json', () => {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

  it.each(processes)('has start:%s, running that process from dist/', (name) => {
    expect(scripts[`start:${name}`]).toBe(`${environmentPrefix}node ${nodeFlags} ${mainOf(name)}`);
  });

  it('starts embedded mode with the same flags and environment', () => {
    expect(scripts['start']).toBe(`npm run build && ${environmentPrefix}node ${nodeFlags} services/embedded/dist/main.js`);
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
    expect(major).toBeGreaterThanOrEqual(20);
  });

  it('installs build tools and dev dependencies only in the build stage', () => {
    const build = stages[0]!.lines.join('\n');
    expect(build).toMatch(/apt-get install[^\n]*\bg\+\+/);
    expect(build).toMatch(/npx tsc -b/);
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
    expect(finalStage.lines.find((l) => l.startsWith('CMD '))).toContain('exec node --enable-source-maps \\"services/${SERVICE}/dist/main.js\\"');
  });

  it('runs every process with the V8 flags of `npm start` (NODE_OPTIONS)', () => {
    const env = finalStage.lines.filter((l) => l.startsWith('ENV ')).join(' ');
    expect(/\bNODE_OPTIONS=(\S+)/.exec(env)?.[1]).toBe(nodeFlags);
  });

  it('runs every process with the environment of `npm start`', () => {
    const env = finalStage.lines.filter((l) => l.startsWith('ENV ')).join(' ').split(/\s+/);
    expect(env).toEqual(expect.arrayContaining(environment));
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
    expect(service.command).toEqual(['node', '--enable-source-maps', mainOf(name)]);

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
  const [secret] = ofKind('Secret', secretSchema);
  const env = { ...configMap!.data, ...secret!.stringData };
  const settings = parseSettings(env);
  const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
    Object.entries(selector).every(([key, value]) => labels[key] === value);

  it('lists every manifest in kustomization.yaml, each with apiVersion, kind and name', () => {
    expect([...kustomization.resources, 'kustomization.yaml'].sort()).toEqual(files);
    for (const manifest of manifests) {
      expect(manifest).toEqual(expect.objectContaining({ apiVersion: expect.any(String), kind: expect.any(String), metadata: expect.objectContaining({ name: expect.any(String) }) }));
    }
    const ids = manifests.map((m) => `${m.kind}/${m.metadata!.name}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps settings in a ConfigMap and secrets in a Secret, every key a setting the processes accept', () => {
    expect(Object.keys(env).filter((key) => !knownSettings.has(key))).toEqual([]);
    expect(Object.keys(secret!.stringData).sort()).toEqual(['ADMIN_TOKEN', 'AMQP_URL', 'FCM_SERVICE_ACCOUNT', 'MONGO_URL', 'REDIS_URL']);
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
    expect(container.command).toEqual(['node', '--enable-source-maps', mainOf(name)]);
    expect(kustomization.images.map((i) => i.name)).toContain(container.image);
    expect(container.envFrom.map((e) => e.configMapRef?.name ?? e.secretRef?.name).sort()).toEqual([configMap!.metadata.name, secret!.metadata.name].sort());
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

  it('scales gateway and push with HorizontalPodAutoscalers on Deployments that exist and leave replicas to them', () => {
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['gateway', 'push']);
    for (const hpa of hpas) {
      const target = deployments.find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name);
      expect(target).toBeDefined();
      expect(target!.spec.replicas).toBeUndefined();
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
    }
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(processes);
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
  if (!kubectl) console.warn('k8s/: `kubectl kustomize` check skipped: no kubectl on PATH');
  (kubectl ? it : it.skip)('builds with kustomize (kubectl kustomize k8s), every resource in the namespace', () => {
    const result = spawnSync('kubectl', ['kustomize', join(root, 'k8s')], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const built = YAML.parseAllDocuments(result.stdout).map((doc) => doc.toJS() as Manifest & { metadata: { namespace?: string } });
    expect(built.length).toBe(manifests.length);
    expect(built.filter((m) => m.kind !== 'Namespace').every((m) => m.metadata.namespace === 'formcast')).toBe(true);
  });
});

function cpuMillis(value: string | number): number {
  const text = String(value);
  return text.endsWith('m') ? Number(text.slice(0, -1)) : Number(text) * 1000;
}

function bytes(value: string | number): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(String(value));
  if (!match) throw new Error(`Unexpected quantity ${value}`);
  return Number(match[1]) * ({ Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[match[2] ?? ''] ?? 1);
}
