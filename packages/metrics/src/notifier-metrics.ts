import { FastCounter } from './fast-metrics';
import { metricsOn } from './registry';

const sends = new FastCounter('formcast_fcm_sends_total', ['outcome'], 'Notifications handed to FCM (or the logging sender without credentials), by outcome: sent, token_not_registered, rejected, retry');

const badgeOperations = new FastCounter('formcast_badge_operations_total', ['operation'], 'Badge store operations: record_outstanding and record_ended (a push event), read (a badge query)');

const sendOutcomes = new Map(['sent', 'token_not_registered', 'rejected', 'retry'].map((outcome) => [outcome, sends.labels(outcome)]));
const badgeChildren = new Map(['record_outstanding', 'record_ended', 'read'].map((operation) => [operation, badgeOperations.labels(operation)]));

export type BadgeOperation = 'record_outstanding' | 'record_ended' | 'read';

/** Counts one notification's outcome (`status` of the notifier's SendOutcome). */
export function recordFcmSend(outcome: string): void {
  if (!metricsOn()) return;
  (sendOutcomes.get(outcome) ?? sends.labels(outcome)).inc();
}

export function recordBadgeOperation(operation: BadgeOperation): void {
  if (metricsOn()) badgeChildren.get(operation)!.inc();
}
