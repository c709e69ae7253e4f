import { z } from 'zod';
import { createDestinationPayload, listDeliveriesPayload, rotateDestinationSecretPayload, updateDestinationPayload } from '@formcast/contracts';
import { bodyOf } from '../openapi/json-schema';
import { answerOf, pageQuery } from '../openapi/operation-parts';
import { deliveryPageView, deliveryView, destinationDetailView, destinationView, destinationWithSecretView } from '../openapi/views';
import {
  createDestination,
  deleteDestination,
  deliveryDocument,
  listDeliveries,
  listDestinations,
  redeliver,
  rotateDestinationSecret,
  showDestination,
  updateDestination,
} from '../routes/destinations';
import { declareArea } from './declare';
import { deletion, read, write } from './route-kinds';

const pathFields = ['formId', 'destinationId'];

/**
 * The Destinations API (observed-behaviour "Where submissions go"), JSON only, under
 * `/api/forms/<form_id>/destinations`: list, show, create, update, delete as the real
 * product, and ours beside them: rotate the signing secret, the delivery log, redeliver, a
 * delivery's document. The delivery service answers 404 for a form of another organization.
 */
export const destinations = declareArea({
  name: 'destinations',
  mount: '/api/forms/:formId',
  tag: 'Destinations',
  suffixes: '.json',
  routes: [
    read('/destinations', 'List a form\'s destinations', answerOf('The destinations', { destinations: z.array(destinationView) }), ({ send }) => listDestinations(send)),
    write('post', '/destinations', [{ suffix: '.json', json: 'destination' }, { json: 'emailDestination' }], ({ send }) => createDestination(send), {
      summary: 'Create a destination',
      description: 'The chosen transport\'s parameters are required; `dispatch_transport` goes with `xml_format`.',
      body: { json: bodyOf(createDestinationPayload, ['formId']) },
      answers: { 201: answerOf('The destination with its signing secret (shown this once)', { destination: destinationWithSecretView }) },
    }),
    read('/destinations/:destinationId', 'Show a destination with its parameters', answerOf('The destination', { destination: destinationDetailView }), ({ send }) => showDestination(send)),
    write('put', '/destinations/:destinationId', [{ suffix: '.json', json: 'destinationUpdate' }], ({ send }) => updateDestination(send), {
      summary: 'Update a destination: description, active, its format\'s and transport\'s parameters',
      description: 'Format and transport cannot change. `active: true` turns a deactivated destination back on.',
      body: { json: bodyOf(updateDestinationPayload, pathFields) },
      answers: { 200: answerOf('The destination as it now is', { destination: destinationDetailView }) },
    }),
    deletion('/destinations/:destinationId', 'Delete a destination', ({ send }) => deleteDestination(send)),
    write('post', '/destinations/:destinationId/rotate_secret', [{ suffix: '.json', json: 'rotation' }], ({ send }) => rotateDestinationSecret(send), {
      summary: 'A new signing secret; the old one keeps signing beside it for the overlap',
      body: { json: bodyOf(rotateDestinationSecretPayload, pathFields), optional: true },
      answers: { 200: answerOf('The destination with its new secret (shown this once)', { destination: destinationWithSecretView }) },
    }),
    read('/destinations/:destinationId/deliveries', 'The destination\'s delivery log, newest first', { description: 'A page of deliveries with their attempts', json: deliveryPageView }, ({ send }) => listDeliveries(send), {
      openapi: { query: pageQuery(listDeliveriesPayload, 'per_page', 'Deliveries per page'), errors: [400, 404] },
    }),
    {
      method: 'post',
      path: '/destinations/:destinationId/deliveries/:deliveryId/redeliver',
      openapi: {
        summary: 'Send a delivery again from the start of the retry schedule (same webhook-id)',
        answers: { 202: answerOf('The delivery, due again', { delivery: deliveryView }) },
      },
      handler: ({ send }) => redeliver(send),
    },
    read(
      '/destinations/:destinationId/deliveries/:deliveryId/document',
      'What a delivery carried: an email\'s document (PDF, .docx, text) as sent, a webhook\'s body',
      { description: 'The document\'s bytes (application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, text/plain, text/html, application/json, application/xml)' },
      ({ fetchWithAttachment }) => deliveryDocument(fetchWithAttachment),
      {
        suffixes: 'none',
        openapi: {
          description:
            'The bytes, with their Content-Type and a Content-Disposition naming the file. An email delivery\'s document is made at its first attempt (404 before); a dispatch carries none (404).',
        },
      },
    ),
  ],
});
