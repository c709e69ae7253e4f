import { runServiceAlone } from '@formcast/runtime';
import { startDeliveryService } from './service';

runServiceAlone('delivery', startDeliveryService);
