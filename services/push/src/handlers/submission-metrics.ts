import type { CommandHandler } from '@formcast/bus';
import { submissionMetricsPayload, type SubmissionMetricView } from '@formcast/contracts';
import { parsePayload, requireOrgId } from '@formcast/platform';
import { toSubmissionMetricView } from '../domain/submission-metrics';
import type { PushDeps } from './deps';

/** report.md: what the performance metric report shows of the submissions named; another organization's are left out. */
export const submissionMetrics =
  ({ store }: PushDeps): CommandHandler =>
  async (command): Promise<SubmissionMetricView[]> => {
    const { submissionIds } = parsePayload(submissionMetricsPayload, command.payload);
    return (await store.getSubmissions(requireOrgId(command), [...new Set(submissionIds)])).map(toSubmissionMetricView);
  };
