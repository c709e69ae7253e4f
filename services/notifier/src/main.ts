import { runServiceAlone } from '@formcast/runtime';
import { notifierPrefetch, startNotifierService } from './service';

runServiceAlone('notifier', startNotifierService, { prefetch: notifierPrefetch });
