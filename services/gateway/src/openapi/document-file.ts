import { join } from 'node:path';

/**
 * The OpenAPI document as the build writes it (write-document.ts, run by bin/build) and the
 * gateway serves it: services/gateway/openapi.json, the same file from src/ and from dist/.
 * It is committed; test/openapi.test.ts fails when it differs from the route table.
 */
export const openApiDocumentFile = join(__dirname, '..', '..', 'openapi.json');
