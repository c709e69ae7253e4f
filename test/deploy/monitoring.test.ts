import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { configureMetrics, parseExposition, renderMetrics } from '@formcast/metrics';
import { settingsSchema } from '@formcast/platform';

/**
 * Offline checks of k8s/monitoring (Prometheus Operator resources, applied on their own):
 * the alerts the issue asks for, scrape targets that meet the ports the processes serve
 * /metrics on, and a dashboard and rules that only name metrics the code defines.
 */

const root = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
type Doc = Record<string, any>;

const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const itWithKubectl = kubectl ? it : it.skip;
if (!kubectl) console.warn('k8s/monitoring: `kubectl kustomize` check skipped: no kubectl on PATH');

const kustomization = YAML.parse(read('k8s/monitoring/kustomization.yaml')) as { resources: string[]; configMapGenerator: Array<{ files: string[] }> };
const manifests: Doc[] = kustomization.resources.flatMap((file) => YAML.parseAllDocuments(read(`k8s/monitoring/${file}`)).map((doc) => doc.toJS() as Doc));
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const rule = ofKind('PrometheusRule')[0]!;
const alerts: Array<{ alert: string; expr: string }> = rule.spec.groups.flatMap((group: Doc) => group.rules);
const dashboardFile = kustomization.configMapGenerator[0]!.files[0]!;
const dashboard = JSON.parse(read(`k8s/monitoring/${dashboardFile}`)) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };

/** Every `formcast_*` metric the code defines (`name: 'formcast_…'` in packages/metrics), with a histogram's series. */
function formcastMetricNames(): Set<string> {
  const names = new Set<string>();
  const dir = join(root, 'packages/metrics/src');
  for (const file of readdirSync(dir)) {
    const source = readFileSync(join(dir, file), 'utf8');
    // Each definition: from its name to the end of its constructor call (`});` at the start of a line).
    for (const match of source.matchAll(/name: '(formcast_[a-z0-9_]+)',[\s\S]*?\n\}\);/g)) {
      const block = match[0];
      names.add(match[1]!);
      if (/buckets:/.test(block)) for (const suffix of ['_bucket', '_count', '_sum']) names.add(match[1]! + suffix);
    }
    // A FastCounter is declared on one line: `new FastCounter('name', labels, help)`.
    for (const match of source.matchAll(/new FastCounter\('(formcast_[a-z0-9_]+)'/g)) names.add(match[1]!);
  }
  return names;
}

/** The metric names a PromQL expression reads (Formcast's and the process's default ones). */
const metricsIn = (expr: string) => [...expr.matchAll(/\b((?:formcast|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

describe('k8s/monitoring', () => {
  it('has alerts on outbox age, dead letters, the 5xx rate, p99 latency, the FCM failure rate and load shedding', () => {
    const exprOf = (name: string) => alerts.find((a) => a.alert === name)?.expr ?? '';
    expect(alerts.map((a) => a.alert).sort()).toEqual(['FormcastDeadLetters', 'FormcastFcmFailureRate', 'FormcastHigh5xxRate', 'FormcastHighP99Latency', 'FormcastLoadShedding', 'FormcastOutboxStale']);
    expect(exprOf('FormcastLoadShedding')).toMatch(/formcast_http_shed_total/);
    expect(exprOf('FormcastOutboxStale')).toMatch(/formcast_outbox_oldest_age_seconds/);
    expect(exprOf('FormcastDeadLetters')).toMatch(/formcast_bus_dead_letters\) > 0/);
    expect(exprOf('FormcastHigh5xxRate')).toMatch(/formcast_http_requests_total\{status=~"5\.\."\}/);
    expect(exprOf('FormcastHighP99Latency')).toMatch(/histogram_quantile\(0\.99, .*formcast_http_request_duration_seconds_bucket/);
    expect(exprOf('FormcastFcmFailureRate')).toMatch(/formcast_fcm_sends_total\{outcome!="sent"\}/);
    for (const alert of alerts) expect(Object.keys((alert as Doc).labels ?? {})).toContain('severity');
  });

  it('names in its rules and dashboard only metrics the processes expose', async () => {
    configureMetrics({ enabled: true });
    const defaults = new Set(parseExposition((await renderMetrics()).body).map((s) => s.name).filter((name) => !name.startsWith('formcast_')));
    const known = new Set([...formcastMetricNames(), ...defaults]);
    expect(known.has('formcast_http_requests_total')).toBe(true);
    expect(known.has('formcast_http_request_duration_seconds_bucket')).toBe(true);

    const used = [...alerts.map((a) => a.expr), ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr))].flatMap(metricsIn);
    expect(used.length).toBeGreaterThan(10);
    expect([...new Set(used)].filter((name) => !known.has(name))).toEqual([]);
    // Every Formcast metric has a panel.
    const plotted = new Set(used.map((name) => name.replace(/_(bucket|count|sum)$/, '')));
    const defined = [...formcastMetricNames()].filter((name) => !/_(bucket|count|sum)$/.test(name));
    expect(defined.filter((name) => !plotted.has(name))).toEqual([]);
  });

  it('scrapes the gateway on METRICS_PORT through a Service of its own, and each service on its health port', () => {
    const metricsPort = settingsSchema.shape.METRICS_PORT.parse(undefined);
    const healthPort = settingsSchema.shape.HEALTH_PORT.parse(undefined);
    const monitor = ofKind('ServiceMonitor')[0]!;
    const scraped = (monitor.spec.endpoints as Doc[]).map((e) => ({ port: e.port, path: e.path }));
    expect(scraped).toEqual([
      { port: 'metrics', path: '/metrics' },
      { port: 'health', path: '/metrics' },
    ]);

    const gatewayMetrics = ofKind('Service').find((s) => s.metadata.name === 'gateway-metrics')!;
    expect(gatewayMetrics.spec.ports).toEqual([{ name: 'metrics', port: metricsPort, targetPort: metricsPort }]);
    expect(gatewayMetrics.spec.type ?? 'ClusterIP').toBe('ClusterIP');

    // The base Services: the services' have the `health` port the monitor names; the public gateway one does not carry metrics.
    const baseServices = readdirSync(join(root, 'k8s'))
      .filter((file) => file.endsWith('.yaml'))
      .flatMap((file) => YAML.parseAllDocuments(read(`k8s/${file}`)).map((doc) => doc.toJS() as Doc))
      .filter((m) => m?.kind === 'Service');
    const selected = (labels: Record<string, string>) => Object.entries(monitor.spec.selector.matchLabels as Record<string, string>).every(([k, v]) => labels[k] === v);
    for (const service of baseServices) {
      expect(selected(service.metadata.labels)).toBe(true);
      const ports = (service.spec.ports as Doc[]).map((p) => p.name);
      if (service.metadata.name === 'gateway') expect(ports).not.toContain('metrics');
      else expect(ports).toContain('health');
      if (service.metadata.name !== 'gateway') expect((service.spec.ports as Doc[]).find((p) => p.name === 'health')!.port).toBe(healthPort);
    }
    expect(selected(gatewayMetrics.metadata.labels)).toBe(true);

    const policy = ofKind('NetworkPolicy')[0]!;
    expect(policy.spec.ingress[0].ports.map((p: Doc) => p.port).sort()).toEqual([healthPort, metricsPort].sort());
  });

  itWithKubectl('builds offline with kubectl kustomize, the dashboard in a ConfigMap Grafana picks up', () => {
    const result = spawnSync('kubectl', ['kustomize', join(root, 'k8s/monitoring')], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const built = YAML.parseAllDocuments(result.stdout).map((doc) => doc.toJS() as Doc);
    expect(built.map((m) => m.kind).sort()).toEqual(['ConfigMap', 'NetworkPolicy', 'PrometheusRule', 'Service', 'ServiceMonitor']);
    for (const manifest of built) expect(manifest.metadata.namespace).toBe('formcast');
    const configMap = built.find((m) => m.kind === 'ConfigMap')!;
    expect(configMap.metadata.labels.grafana_dashboard).toBe('1');
    expect(JSON.parse(configMap.data[dashboardFile])).toEqual(dashboard);
  });
});
