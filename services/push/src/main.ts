import { runServiceAlone } from '@formcast/bus';
import { startPushService } from './service';

runServiceAlone('push', startPushService);
