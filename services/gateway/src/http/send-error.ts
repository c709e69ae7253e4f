import type { Response } from 'express';
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '@formcast/contracts';
import { buildXml } from '@formcast/xml-writing';
import { errorStatus } from './error-status';
import type { ResponseFormat } from './response-format';

/**
 * Error bodies as the real product sends them: a 400 is plain text
 * (`response_type: ERROR / response_code: bad_request / message: …`); a 404 on a JSON path
 * is `{"status":"404","error":"Not Found"}`; we add the message where it helps.
 */
export function sendError(res: Response, error: ErrorBody, format: ResponseFormat | undefined): void {
  const status = errorStatus[error.code];
  res.status(status);
  // The reason in a `Message` header too, as form.md tells clients to read it (any failure: one rule). A header carries
  // one line of visible ASCII: anything else becomes a space or `?`, and it is cut at 500 characters.
  res.setHeader('Message', error.message.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e]/g, '?').slice(0, 500));
  if (status === 304) {
    res.end();
    return;
  }
  const reason = STATUS_CODES[status] ?? 'Error';
  if (status === 400) {
    const code = reason.toLowerCase().replace(/\s+/g, '_');
    res.type('text/plain').send(`response_type: ERROR\nresponse_code: ${code}\nmessage: ${error.message}\n`);
    return;
  }
  if (format === 'xml') {
    res.type('application/xml').send(buildXml('errors', { error: error.message }));
    return;
  }
  res.json({ status: String(status), error: reason, message: error.message });
}
