import { runServiceAlone } from '@formcast/runtime';
import { startResourcesService } from './service';

runServiceAlone('resources', startResourcesService);
