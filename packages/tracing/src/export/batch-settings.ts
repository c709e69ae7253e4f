/** The OTEL_BSP_* settings of the batch span processor, as the specification names and defaults them. */
export interface BatchSettings {
  /** OTEL_BSP_SCHEDULE_DELAY: the longest a finished span waits before its batch is exported, ms. */
  scheduledDelayMillis: number;
  /** OTEL_BSP_EXPORT_TIMEOUT: the longest one export may take, ms. */
  exportTimeoutMillis: number;
  /** OTEL_BSP_MAX_QUEUE_SIZE: spans waiting for export at most; beyond it, finished spans are dropped. */
  maxQueueSize: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans in one export at most (never above maxQueueSize). */
  maxExportBatchSize: number;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name]?.trim() || Number.NaN);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function batchSettingsFrom(env: NodeJS.ProcessEnv): BatchSettings {
  const maxQueueSize = positive(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  return {
    scheduledDelayMillis: positive(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
    exportTimeoutMillis: positive(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30000),
    maxQueueSize,
    maxExportBatchSize: Math.min(positive(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512), maxQueueSize),
  };
}
