export { createGatewayApp, type GatewayOptions } from './http/create-app';
export { httpTimeouts, type HttpTimeouts } from './http/http-timeouts';
export { closeServer, createGatewayServer, listenOn, type GatewayTls } from './http/listen';
export { tlsFilesOf, type TlsFiles } from './http/tls-files';
export { GatewayRateLimits, rateLimitSettings, type RateLimitSettings, type RateLimitStore } from './http/rate-limit';
export { LoadShedder, loadSheddingSettings, type LoadSheddingSettings } from './http/load-shedding';
export { routeTable, fullPath, type HostileCase, type RouteArea, type RouteDeclaration } from './route-table';
export { openApiDocumentFile } from './openapi/document-file';
export { openApiDocumentText } from './openapi/write-document';
