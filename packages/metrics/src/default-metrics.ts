import type { Registry } from 'prom-client';

/**
 * prom-client's default metrics, each module as its collectDefaultMetrics runs it, all but
 * eventLoopLag: its histogram's timer runs for the process's whole life, 5 wakes a second at
 * 200 ms even while nothing happens (issue 24). Our own (event-loop-lag.ts) keeps its names.
 */
const defaultMetricModules = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  ...(typeof process.getActiveResourcesInfo === 'function' ? ['processResources'] : []),
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
  'gc',
];

type DefaultMetric = (registry: Registry, config: object) => void;

export function collectDefaultMetricsButLag(registry: Registry): void {
  for (const name of defaultMetricModules) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const metric = require(`prom-client/lib/metrics/${name}`) as DefaultMetric;
    metric(registry, {});
  }
}
