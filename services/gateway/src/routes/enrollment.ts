import { Router } from 'express';
import { directoryCommands } from '@formcast/contracts';
import { jsonBody } from '../http/request-body';
import type { RouteDeps } from './route-deps';

/**
 * A device joins an organization with its enrollment code; no API token involved. The body:
 * `enrollment_code`, `identifier`, optional `owner`, `description`, `push_token`, and the
 * versions it reports of itself, `os_version`, `app_identifier`, `app_version`.
 */
export function enrollmentRoutes({ send }: RouteDeps): Router {
  const router = Router();
  router.post('/devices/enroll', async (req, res) => {
    res.status(201).json(await send(req, directoryCommands.enrollDevice, jsonBody(req)));
  });
  return router;
}
