import { runServiceAlone } from '@formcast/bus';
import { startDirectoryService } from './service';

runServiceAlone('directory', startDirectoryService);
