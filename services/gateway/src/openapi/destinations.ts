import { z } from 'zod';
import { createDestinationPayload, listDeliveriesPayload, rotateDestinationSecretPayload, updateDestinationPayload } from '@formcast/contracts';
import { bodyOf, fieldOf } from './json-schema';
import type { PathTable } from './operation';
import { deliveryPageView, deliveryView, destinationDetailView, destinationView, destinationWithSecretView } from './views';

/** The Destinations API (JSON only): where a form's submissions go, the signing secret, the delivery log. */

const pathFields = ['formId', 'destinationId'];

export const destinationPaths: PathTable = {
  '/api/forms/{formId}/destinations': {
    get: {
      summary: 'List a form\'s destinations',
      auth: 'apiToken',
      suffixes: '.json',
      answers: { 200: { description: 'The destinations', json: z.strictObject({ destinations: z.array(destinationView) }) } },
      errors: [404],
    },
    post: {
      summary: 'Create a destination',
      description: 'The chosen transport\'s parameters are required; `dispatch_transport` goes with `xml_format`.',
      auth: 'apiToken',
      suffixes: '.json',
      body: { json: bodyOf(createDestinationPayload, ['formId']) },
      answers: { 201: { description: 'The destination with its signing secret (shown this once)', json: z.strictObject({ destination: destinationWithSecretView }) } },
      errors: [400, 404],
    },
  },
  '/api/forms/{formId}/destinations/{destinationId}': {
    get: {
      summary: 'Show a destination with its parameters',
      auth: 'apiToken',
      suffixes: '.json',
      answers: { 200: { description: 'The destination', json: z.strictObject({ destination: destinationDetailView }) } },
      errors: [404],
    },
    put: {
      summary: 'Update a destination: description, active, its format\'s and transport\'s parameters',
      description: 'Format and transport cannot change. `active: true` turns a deactivated destination back on.',
      auth: 'apiToken',
      suffixes: '.json',
      body: { json: bodyOf(updateDestinationPayload, pathFields) },
      answers: { 200: { description: 'The destination as it now is', json: z.strictObject({ destination: destinationDetailView }) } },
      errors: [400, 404],
    },
    delete: { summary: 'Delete a destination', auth: 'apiToken', suffixes: '.json', answers: { 200: { description: 'Deleted (empty body)' } }, errors: [404] },
  },
  '/api/forms/{formId}/destinations/{destinationId}/rotate_secret': {
    post: {
      summary: 'A new signing secret; the old one keeps signing beside it for the overlap',
      auth: 'apiToken',
      suffixes: '.json',
      body: { json: bodyOf(rotateDestinationSecretPayload, pathFields), optional: true },
      answers: { 200: { description: 'The destination with its new secret (shown this once)', json: z.strictObject({ destination: destinationWithSecretView }) } },
      errors: [400, 404],
    },
  },
  '/api/forms/{formId}/destinations/{destinationId}/deliveries': {
    get: {
      summary: 'The destination\'s delivery log, newest first',
      auth: 'apiToken',
      suffixes: '.json',
      query: {
        page: { schema: fieldOf(listDeliveriesPayload, 'page'), description: 'The page, from 1' },
        per_page: { schema: fieldOf(listDeliveriesPayload, 'per_page'), description: 'Deliveries per page' },
      },
      answers: { 200: { description: 'A page of deliveries with their attempts', json: deliveryPageView } },
      errors: [400, 404],
    },
  },
  '/api/forms/{formId}/destinations/{destinationId}/deliveries/{deliveryId}/document': {
    get: {
      summary: 'What a delivery carried: an email\'s document (PDF, .docx, text) as sent, a webhook\'s body',
      description:
        'The bytes, with their Content-Type and a Content-Disposition naming the file. An email delivery\'s document is made at its first attempt (404 before); a dispatch carries none (404).',
      auth: 'apiToken',
      suffixes: 'none',
      answers: { 200: { description: 'The document\'s bytes (application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, text/plain, text/html, application/json, application/xml)' } },
      errors: [404],
    },
  },
  '/api/forms/{formId}/destinations/{destinationId}/deliveries/{deliveryId}/redeliver': {
    post: {
      summary: 'Send a delivery again from the start of the retry schedule (same webhook-id)',
      auth: 'apiToken',
      suffixes: '.json',
      answers: { 202: { description: 'The delivery, due again', json: z.strictObject({ delivery: deliveryView }) } },
      errors: [404],
    },
  },
};
