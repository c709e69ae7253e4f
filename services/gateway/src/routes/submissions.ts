import type { Request, RequestHandler } from 'express';
import {
  deliveryCommands,
  directoryCommands,
  pushCommands,
  type DestinationView,
  type DeviceView,
  type ResolvedForm,
  type SubmissionDatabasePageView,
  type SubmissionInstanceView,
} from '@formcast/contracts';
import { AppError, isAppError } from '@formcast/platform';
import { jsonObjectBody } from '../http/json-object';
import { pageQuery } from '../http/page-query';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import type { SendCommand } from '../http/send-command';
import { renderAuthorsXml, toAuthorView } from '../render/authors';
import { renderSubmissionInstanceXml } from '../render/submission-instance-xml';
import { parseXml } from '../xml/parse-xml';
import { readSubmissionInstance } from '../xml/submission-instance';

const submissionBody = `{"payload": "<?xml version='1.0' encoding='UTF-8'?><instance xmlns='<form namespace>' submissionIdentifier='<uuid>'>…</instance>"}`;

/** A text parameter of the query string, or undefined when absent or empty. */
function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError('invalid', `${name}: give it once`);
  return value;
}

/** A text field of the body beside `payload` (submission-xml.md lists `form_namespace` and `submission_identifier`), or undefined. */
function optionalBodyText(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 1000) throw new AppError('invalid', `${name}: must be a non-empty string (at most 1000 characters)`);
  return value;
}

/** `destination_ids`: a JSON array of destination ids, or the same comma-separated; undefined when absent. */
function destinationIdsOf(value: unknown): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items: unknown[] = typeof value === 'string' ? value.split(',').map((part) => part.trim()) : Array.isArray(value) ? value : [value];
  if (items.length === 0 || items.length > 100) throw new AppError('invalid', 'destination_ids: give 1 to 100 destination ids');
  return items.map((item, index) => {
    const text = typeof item === 'number' ? String(item) : item;
    if (typeof text !== 'string' || !/^[1-9]\d{0,14}$/.test(text)) throw new AppError('invalid', `destination_ids[${index}]: must be a destination id (a positive integer)`);
    return Number(text);
  });
}

/**
 * Every id of `destination_ids` must be a destination of the instance's form (delivery's,
 * asked through its list command): 400 naming the first that is not. A namespace no form has
 * is left to push, which answers 400 naming `form_namespace`.
 */
async function checkDestinationsOfForm(send: SendCommand, req: Request, namespace: string, ids: number[]): Promise<void> {
  let form: ResolvedForm;
  try {
    form = await send<ResolvedForm>(req, directoryCommands.resolveForm, { namespace });
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return;
    throw error;
  }
  const known = new Set((await send<DestinationView[]>(req, deliveryCommands.listDestinations, { formId: form.id })).map((d) => d.id));
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0) throw new AppError('invalid', `destination_ids[${index}]: ${ids[index]} is not a destination of the form ${namespace}`);
}

/** `submission_ids`: comma-separated ids (submission.md), each a positive integer; a bad one is 400 naming it. */
function submissionIds(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  return text.split(',').map((part, index) => {
    const trimmed = part.trim();
    if (!/^[1-9]\d{0,14}$/.test(trimmed)) throw new AppError('invalid', `submission_ids[${index}]: must be a submission id (a positive integer), got ${JSON.stringify(trimmed.slice(0, 40))}`);
    return Number(trimmed);
  });
}

/**
 * The organization's approved devices as authors (`submission_authors`, `dispatch_authors`):
 * JSON `{"authors":[…]}` or XML; a page of them with `items` (per page) or `page` (from 1).
 */
export function authorsRoute(send: SendCommand): RequestHandler {
  return async (req, res) => {
    const format = responseFormat(req, 'json');
    const page = { page: pageQuery(req, 'page'), items: pageQuery(req, 'items') };
    const authors = (await send<DeviceView[]>(req, directoryCommands.listDevices, { approvedOnly: true, ...page })).map(toAuthorView);
    if (format === 'xml') res.type('application/xml').send(renderAuthorsXml(authors));
    else res.json({ authors });
  };
}

/*
 * Submissions through the organization's API token, as the real product documents them:
 * submitting on behalf of a device (v3), the possible authors (v3, authorsRoute), one
 * submission's XML instance (v3), and the submissions database API of a form. Another
 * organization's device, form or submission is 404, as everywhere.
 */

/** The same submissionIdentifier again is the same submission: 202 again, nothing new. `.xml` is documented too (submission-xml.md: "Body is still json"); both answer 202, empty. */
export const submitForDevice = (send: SendCommand): RequestHandler => async (req, res) => {
  responseFormat(req, 'json');
  const body = jsonObjectBody(req, submissionBody);
  const { payload } = body;
  if (typeof payload !== 'string') throw new AppError('invalid', `payload: must be the submission's XML instance, as a string: ${submissionBody}`);
  const instance = readSubmissionInstance(parseXml(payload), {
    formNamespace: optionalBodyText(body, 'form_namespace'),
    submissionIdentifier: optionalBodyText(body, 'submission_identifier'),
  });
  const destinationIds = destinationIdsOf(body['destination_ids']);
  if (destinationIds !== undefined) await checkDestinationsOfForm(send, req, instance.formNamespace, destinationIds);
  await send(req, pushCommands.submitForm, {
    deviceRef: String(req.params['deviceRef']),
    form_namespace: instance.formNamespace,
    submission_identifier: instance.submissionIdentifier,
    answers: instance.answers,
    fromXml: true,
    ...(destinationIds === undefined ? {} : { destination_ids: destinationIds }),
  });
  res.status(202).end();
};

/** XML only, as documented: `.json` and any other suffix are 404. */
export const showSubmission = (send: SendCommand): RequestHandler => async (req, res) => {
  const submission = await send<SubmissionInstanceView>(req, pushCommands.getSubmission, {
    submissionId: pathId(req.params['submissionId'], 'Submission'),
  });
  res.type('application/xml').send(renderSubmissionInstanceXml(submission));
};

/** The submissions database API of a form: a page, filtered as the product's docs filter it. */
export const submissionDatabase = (send: SendCommand): RequestHandler => async (req, res) => {
  const page = await send<SubmissionDatabasePageView>(req, pushCommands.listFormSubmissions, {
    formId: pathId(req.params['formId'], 'Form'),
    page: pageQuery(req, 'page'),
    per_page: pageQuery(req, 'per_page'),
    device_id: queryText(req, 'device_id'),
    submitted_after: queryText(req, 'submitted_after'),
    submitted_before: queryText(req, 'submitted_before'),
    from_date: queryText(req, 'from_date'),
    to_date: queryText(req, 'to_date'),
    submission_ids: submissionIds(queryText(req, 'submission_ids')),
    search: queryText(req, 'search'),
  });
  res.json(page);
};
