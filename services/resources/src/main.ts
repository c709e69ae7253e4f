import { runServiceAlone } from '@formcast/bus';
import { startResourcesService } from './service';

runServiceAlone('resources', startResourcesService);
