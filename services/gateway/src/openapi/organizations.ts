import { z } from 'zod';
import type { PathTable } from './operation';
import { outstandingOneshotView } from './views';

/** First generation (api-spec.md): groups, devices, forms, the organization's oneshots, the Connections API. */

const oneshotFormsXml = '`<forms type="array"><form><description/><device-id type="integer"/><id type="integer"/><name/><namespace/><organization-id type="integer"/></form>…</forms>`';

export const organizationPaths: PathTable = {
  '/organizations/{orgId}/oneshots': {
    get: {
      summary: 'List every outstanding oneshot of the organization',
      description: 'Unpaginated (spec 2.8), streamed as it is read: a failure midway cuts the connection rather than answer a shorter list.',
      auth: 'apiToken',
      suffixes: '.json|.xml',
      answers: { 200: { description: 'XML unless asked for JSON; JSON is a bare array', json: z.array(outstandingOneshotView), xml: oneshotFormsXml } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/forms/{formId}/remote_connections': {
    post: {
      summary: 'Create connections (the Connections API: XML destinations of a form)',
      description: 'Each `<http_connection>` becomes an http_transport destination with xml_format; a request makes all or none.',
      auth: 'apiToken',
      suffixes: '.xml',
      body: { xml: '`<remote_connections><http_connection><name/><remote_url/><headers><header_1>value_1</header_1></headers></http_connection>…</remote_connections>`' },
      answers: {
        201: {
          description: 'The connections made, each with its signing secret (shown this once)',
          xml: '`<remote_connections type="array"><http_connection><id/><name/><remote_url/><headers/>…<secret/></http_connection>…</remote_connections>`',
        },
      },
      errors: [400, 404],
    },
    get: {
      summary: 'List a form\'s connections',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: { 200: { description: 'The form\'s http_transport destinations', xml: '`<remote_connections type="array"><http_connection>…</http_connection>…</remote_connections>`' } },
      errors: [404],
    },
  },
  '/organizations/{orgId}/forms/{formId}/remote_connections/{connectionId}': {
    get: {
      summary: 'Show a connection',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: { 200: { description: 'The connection', xml: '`<http_connection><id/><name/><remote_url/><headers/>…</http_connection>`' } },
      errors: [404],
    },
    delete: {
      summary: 'Delete a connection',
      auth: 'apiToken',
      suffixes: '.xml',
      answers: { 200: { description: 'Deleted (empty body)' } },
      errors: [404],
    },
  },
};
