import type { Bus } from '@formcast/bus';
import { startDeliveryService } from '@formcast/delivery';
import { startDirectoryService } from '@formcast/directory';
import { startNotifierService } from '@formcast/notifier';
import { startPushService } from '@formcast/push';
import { startResourcesService } from '@formcast/resources';
import type { ServiceStarter } from '@formcast/platform';

/** Every service behind the gateway, in start order. Add a new service here. */
export const serviceStarters: ServiceStarter<Bus>[] = [
  startDirectoryService,
  startResourcesService,
  startPushService,
  startNotifierService,
  startDeliveryService,
];
