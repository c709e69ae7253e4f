import { runServiceAlone } from '@formcast/runtime';
import { startPushService } from './service';

runServiceAlone('push', startPushService);
