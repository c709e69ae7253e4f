import type { RequestHandler } from 'express';
import { directoryCommands } from '@formcast/contracts';
import { jsonBody } from '../http/request-body';
import type { SendCommand } from '../http/send-command';

/**
 * A device joins an organization with its enrollment code; no API token involved. The body:
 * `enrollment_code`, `identifier`, optional `owner`, `description`, `push_token`, and the
 * versions it reports of itself, `os_version`, `app_identifier`, `app_version`.
 */
export const enrollDevice = (send: SendCommand): RequestHandler => async (req, res) => {
  res.status(201).json(await send(req, directoryCommands.enrollDevice, jsonBody(req)));
};
