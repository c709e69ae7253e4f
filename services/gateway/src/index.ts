export { createGatewayApp, type GatewayOptions } from './http/create-app';
export { closeServer, listenOn } from './http/listen';
