import { Router, type Request, type RequestHandler } from 'express';
import { directoryCommands, pushCommands, type DeviceView, type SubmissionDatabasePageView, type SubmissionInstanceView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { jsonObjectBody } from '../http/json-object';
import { pageQuery } from '../http/page-query';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import type { SendCommand } from '../http/send-command';
import { renderAuthorsXml, toAuthorView } from '../render/authors';
import { renderSubmissionInstanceXml } from '../render/submission-instance-xml';
import { parseXml } from '../xml/parse-xml';
import { readSubmissionInstance } from '../xml/submission-instance';
import type { RouteDeps } from './route-deps';

export interface SubmissionRouteDeps extends RouteDeps {
  /** The organization API token check (`requireApiToken`), run for these routes only. */
  authenticate: RequestHandler;
}

const submissionBody = `{"payload": "<?xml version='1.0' encoding='UTF-8'?><instance xmlns='<form namespace>' submissionIdentifier='<uuid>'>…</instance>"}`;

/** A text parameter of the query string, or undefined when absent or empty. */
function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new AppError('invalid', `${name}: give it once`);
  return value;
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

/**
 * Submissions through the organization's API token, as the real product documents them:
 * submitting on behalf of a device (v3), the possible authors (v3), one submission's XML
 * instance (v3), and the submissions database API of a form. Another organization's device,
 * form or submission is 404, as everywhere.
 */
export function submissionRoutes({ send, authenticate }: SubmissionRouteDeps): Router {
  const router = Router();

  // The same submissionIdentifier again is the same submission: 202 again, nothing new.
  router.post('/api/v3/devices/:deviceRef/submissions{.json}', authenticate, async (req, res) => {
    const { payload } = jsonObjectBody(req, submissionBody);
    if (typeof payload !== 'string') throw new AppError('invalid', `payload: must be the submission's XML instance, as a string: ${submissionBody}`);
    const instance = readSubmissionInstance(parseXml(payload));
    await send(req, pushCommands.submitForm, {
      deviceRef: String(req.params['deviceRef']),
      form_namespace: instance.formNamespace,
      submission_identifier: instance.submissionIdentifier,
      answers: instance.answers,
      fromXml: true,
    });
    res.status(202).end();
  });

  router.get('/api/v3/submission_authors{.:format}', authenticate, authorsRoute(send));

  // XML only, as documented: `.json` and any other suffix are 404.
  router.get('/api/v3/submissions/:submissionId{.xml}', authenticate, async (req, res) => {
    const submission = await send<SubmissionInstanceView>(req, pushCommands.getSubmission, {
      submissionId: pathId(req.params['submissionId'], 'Submission'),
    });
    res.type('application/xml').send(renderSubmissionInstanceXml(submission));
  });

  router.get('/api/forms/:formId/device_magic_database{.json}', authenticate, async (req, res) => {
    const page = await send<SubmissionDatabasePageView>(req, pushCommands.listFormSubmissions, {
      formId: pathId(req.params['formId'], 'Form'),
      page: pageQuery(req, 'page'),
      per_page: pageQuery(req, 'per_page'),
      device_id: queryText(req, 'device_id'),
      submitted_after: queryText(req, 'submitted_after'),
      submitted_before: queryText(req, 'submitted_before'),
    });
    res.json(page);
  });

  return router;
}
