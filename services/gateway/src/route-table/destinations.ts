import { z } from 'zod';
import { createDestinationPayload, listDeliveriesPayload, rotateDestinationSecretPayload, updateDestinationPayload } from '@formcast/contracts';
import { bodyOf, fieldOf } from '../openapi/json-schema';
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
import { declareArea, deletedAnswer } from './declare';
import { pathIds } from './path-ids';

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
    {
      method: 'get',
      path: '/destinations',
      openapi: {
        summary: 'List a form\'s destinations',
        answers: { 200: { description: 'The destinations', json: z.strictObject({ destinations: z.array(destinationView) }) } },
      },
      handler: ({ send }) => listDestinations(send),
    },
    {
      method: 'post',
      path: '/destinations',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Create a destination',
        description: 'The chosen transport\'s parameters are required; `dispatch_transport` goes with `xml_format`.',
        body: { json: bodyOf(createDestinationPayload, ['formId']) },
        answers: { 201: { description: 'The destination with its signing secret (shown this once)', json: z.strictObject({ destination: destinationWithSecretView }) } },
      },
      hostile: [{ suffix: '.json', json: 'destination' }, { json: 'emailDestination' }],
      handler: ({ send }) => createDestination(send),
    },
    {
      method: 'get',
      path: '/destinations/:destinationId',
      openapi: {
        summary: 'Show a destination with its parameters',
        answers: { 200: { description: 'The destination', json: z.strictObject({ destination: destinationDetailView }) } },
      },
      handler: ({ send }) => showDestination(send),
    },
    {
      method: 'put',
      path: '/destinations/:destinationId',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Update a destination: description, active, its format\'s and transport\'s parameters',
        description: 'Format and transport cannot change. `active: true` turns a deactivated destination back on.',
        body: { json: bodyOf(updateDestinationPayload, pathFields) },
        answers: { 200: { description: 'The destination as it now is', json: z.strictObject({ destination: destinationDetailView }) } },
      },
      hostile: [{ suffix: '.json', json: 'destinationUpdate' }],
      handler: ({ send }) => updateDestination(send),
    },
    {
      method: 'delete',
      path: '/destinations/:destinationId',
      openapi: { summary: 'Delete a destination', answers: deletedAnswer },
      handler: ({ send }) => deleteDestination(send),
    },
    {
      method: 'post',
      path: '/destinations/:destinationId/rotate_secret',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'A new signing secret; the old one keeps signing beside it for the overlap',
        body: { json: bodyOf(rotateDestinationSecretPayload, pathFields), optional: true },
        answers: { 200: { description: 'The destination with its new secret (shown this once)', json: z.strictObject({ destination: destinationWithSecretView }) } },
      },
      hostile: [{ suffix: '.json', json: 'rotation' }],
      handler: ({ send }) => rotateDestinationSecret(send),
    },
    {
      method: 'get',
      path: '/destinations/:destinationId/deliveries',
      openapi: {
        summary: 'The destination\'s delivery log, newest first',
        query: {
          page: { schema: fieldOf(listDeliveriesPayload, 'page'), description: 'The page, from 1' },
          per_page: { schema: fieldOf(listDeliveriesPayload, 'per_page'), description: 'Deliveries per page' },
        },
        answers: { 200: { description: 'A page of deliveries with their attempts', json: deliveryPageView } },
        errors: [400, 404],
      },
      handler: ({ send }) => listDeliveries(send),
    },
    {
      method: 'post',
      path: '/destinations/:destinationId/deliveries/:deliveryId/redeliver',
      openapi: {
        summary: 'Send a delivery again from the start of the retry schedule (same webhook-id)',
        answers: { 202: { description: 'The delivery, due again', json: z.strictObject({ delivery: deliveryView }) } },
      },
      handler: ({ send }) => redeliver(send),
    },
    {
      method: 'get',
      path: '/destinations/:destinationId/deliveries/:deliveryId/document',
      suffixes: 'none',
      openapi: {
        summary: 'What a delivery carried: an email\'s document (PDF, .docx, text) as sent, a webhook\'s body',
        description:
          'The bytes, with their Content-Type and a Content-Disposition naming the file. An email delivery\'s document is made at its first attempt (404 before); a dispatch carries none (404).',
        answers: { 200: { description: 'The document\'s bytes (application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, text/plain, text/html, application/json, application/xml)' } },
      },
      handler: ({ fetchWithAttachment }) => deliveryDocument(fetchWithAttachment),
    },
  ],
});
