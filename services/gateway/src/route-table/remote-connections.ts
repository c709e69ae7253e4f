import { createConnections, deleteConnection, listConnections, showConnection } from '../routes/remote-connections';
import { declareArea } from './declare';
import { deletion, read, write } from './route-kinds';

const connectionXml = '`<http_connection><id/><name/><remote_url/><headers/>…</http_connection>`';

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
    write('post', '/forms/:formId/remote_connections', [{ suffix: '.xml', xml: 'connectionsXml' }], ({ send }) => createConnections(send), {
      summary: 'Create connections (the Connections API: XML destinations of a form)',
      description: 'Each `<http_connection>` becomes an http_transport destination with xml_format; a request makes all or none.',
      body: { xml: '`<remote_connections><http_connection><name/><remote_url/><headers><header_1>value_1</header_1></headers></http_connection>…</remote_connections>`' },
      answers: {
        201: {
          description: 'The connections made, each with its signing secret (shown this once)',
          xml: '`<remote_connections type="array"><http_connection><id/><name/><remote_url/><headers/>…<secret/></http_connection>…</remote_connections>`',
        },
      },
    }),
    read(
      '/forms/:formId/remote_connections',
      'List a form\'s connections',
      { description: 'The form\'s http_transport destinations', xml: '`<remote_connections type="array"><http_connection>…</http_connection>…</remote_connections>`' },
      ({ send }) => listConnections(send),
    ),
    read('/forms/:formId/remote_connections/:connectionId', 'Show a connection', { description: 'The connection', xml: connectionXml }, ({ send }) => showConnection(send)),
    deletion('/forms/:formId/remote_connections/:connectionId', 'Delete a connection', ({ send }) => deleteConnection(send)),
  ],
});
