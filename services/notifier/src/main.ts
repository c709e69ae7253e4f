import { runServiceAlone } from '@formcast/bus';
import { startNotifierService } from './service';

runServiceAlone('notifier', startNotifierService);
