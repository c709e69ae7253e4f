export { createGatewayApp, type GatewayOptions } from './http/create-app';
