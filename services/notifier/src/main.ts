import { runServiceAlone } from '@formcast/bus';
import { notifierPrefetch, startNotifierService } from './service';

runServiceAlone('notifier', startNotifierService, { prefetch: notifierPrefetch });
