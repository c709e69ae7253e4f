export { runServiceAlone, startServiceAlone, type ServiceAlone } from './run-service-alone';
