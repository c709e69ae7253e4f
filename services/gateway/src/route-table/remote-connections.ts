import { createConnections, deleteConnection, listConnections, showConnection } from '../routes/remote-connections';
import { declareArea, deletedAnswer } from './declare';
import { pathIds } from './path-ids';

/**
 * The Connections API, the older generation of the Destinations API, in XML: each
 * `<http_connection>` is an http_transport destination of the form with xml_format. Mounted
 * under /organizations/:orgId (authenticated and scoped by the mount).
 */
export const remoteConnections = declareArea({
  name: 'remote-connections',
  mount: '/organizations/:orgId',
  tag: 'Organization (first generation)',
  suffixes: '.xml',
  routes: [
    {
      method: 'post',
      path: '/forms/:formId/remote_connections',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Create connections (the Connections API: XML destinations of a form)',
        description: 'Each `<http_connection>` becomes an http_transport destination with xml_format; a request makes all or none.',
        body: { xml: '`<remote_connections><http_connection><name/><remote_url/><headers><header_1>value_1</header_1></headers></http_connection>…</remote_connections>`' },
        answers: {
          201: {
            description: 'The connections made, each with its signing secret (shown this once)',
            xml: '`<remote_connections type="array"><http_connection><id/><name/><remote_url/><headers/>…<secret/></http_connection>…</remote_connections>`',
          },
        },
      },
      hostile: [{ suffix: '.xml', xml: 'connectionsXml' }],
      handler: ({ send }) => createConnections(send),
    },
    {
      method: 'get',
      path: '/forms/:formId/remote_connections',
      openapi: {
        summary: 'List a form\'s connections',
        answers: { 200: { description: 'The form\'s http_transport destinations', xml: '`<remote_connections type="array"><http_connection>…</http_connection>…</remote_connections>`' } },
      },
      handler: ({ send }) => listConnections(send),
    },
    {
      method: 'get',
      path: '/forms/:formId/remote_connections/:connectionId',
      openapi: {
        summary: 'Show a connection',
        answers: { 200: { description: 'The connection', xml: '`<http_connection><id/><name/><remote_url/><headers/>…</http_connection>`' } },
      },
      handler: ({ send }) => showConnection(send),
    },
    {
      method: 'delete',
      path: '/forms/:formId/remote_connections/:connectionId',
      openapi: {
        summary: 'Delete a connection',
        answers: deletedAnswer,
      },
      handler: ({ send }) => deleteConnection(send),
    },
  ],
});
