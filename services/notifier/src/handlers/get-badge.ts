import type { CommandHandler } from '@formcast/bus';
import { getBadgePayload, type BadgeView } from '@formcast/contracts';
import { recordBadgeOperation } from '@formcast/metrics';
import { parsePayload, requireOrgId } from '@formcast/platform';
import type { NotifierDeps } from './deps';

/** A device's badge in the caller's organization (the gateway checked the device exists there). */
export const getBadge =
  ({ badges }: NotifierDeps): CommandHandler =>
  async (command): Promise<BadgeView> => {
    const orgId = requireOrgId(command);
    const { deviceId } = parsePayload(getBadgePayload, command.payload);
    const badge = await badges.badge({ orgId, deviceId });
    recordBadgeOperation('read');
    return { badge };
  };
