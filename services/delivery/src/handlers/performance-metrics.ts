import type { CommandHandler } from '@formcast/bus';
import { performanceMetricsPayload, type DeliveryMetricsPageView } from '@formcast/contracts';
import { AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { toDeliveryMetricView } from '../domain/performance-metrics';
import type { DeliveryDeps } from './deps';

/** report.md: a page of the organization's deliveries created in [from, to), for the performance metric report. */
export const performanceMetrics =
  ({ store }: DeliveryDeps): CommandHandler =>
  async (command): Promise<DeliveryMetricsPageView> => {
    const input = parsePayload(performanceMetricsPayload, command.payload);
    const from = new Date(input.from).toISOString();
    const to = new Date(input.to).toISOString();
    if (from >= to) throw new AppError('invalid', 'from: must be before to');
    const after = input.after ? { createdAt: new Date(input.after.created_at).toISOString(), deliveryId: input.after.delivery_id } : null;
    const metrics = await store.metrics.performanceMetrics(requireOrgId(command), { from, to }, after, input.limit);
    return { rows: metrics.map(toDeliveryMetricView), more: metrics.length === input.limit };
  };
