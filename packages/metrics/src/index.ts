export { configureMetrics, metricsOn, metricsRegistry, secondsSince } from './registry';
export { recordHttpRequest } from './http-metrics';
export { EventSeries, recordCommand, watchDeadLetters } from './bus-metrics';
export { watchOutbox, type OutboxBacklog } from './outbox-metrics';
export { recordBadgeOperation, recordFcmSend, type BadgeOperation } from './notifier-metrics';
export { recordDeliveryAttempt } from './delivery-metrics';
export { answerMetrics, renderMetrics, startMetricsServer, type MetricsServer } from './exposition';
export { parseExposition, sampleValue, type Sample } from './parse-exposition';
export { serveOnPort, type PortServer } from './port-server';
