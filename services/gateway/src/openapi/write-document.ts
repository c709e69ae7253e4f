import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './document';
import { openApiDocumentFile } from './document-file';

/** The build's step (bin/build): the OpenAPI document, from the route table, into its file. */
export function openApiDocumentText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (require.main === module) writeFileSync(openApiDocumentFile, openApiDocumentText());
