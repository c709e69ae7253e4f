import { runServiceAlone } from '@formcast/runtime';
import { startDirectoryService } from './service';

runServiceAlone('directory', startDirectoryService);
