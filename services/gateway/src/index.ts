export { createGatewayApp, type GatewayOptions } from './http/create-app';
export { httpTimeouts, type HttpTimeouts } from './http/http-timeouts';
export { closeServer, createGatewayServer, listenOn, type GatewayTls } from './http/listen';
export { tlsFilesOf, type TlsFiles } from './http/tls-files';
export { GatewayRateLimits, rateLimitSettings, type RateLimitSettings, type RateLimitStore } from './http/rate-limit';
export { LoadShedder, loadSheddingSettings, type LoadSheddingSettings } from './http/load-shedding';
