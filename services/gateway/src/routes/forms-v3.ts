import { Router, type RequestHandler } from 'express';
import { directoryCommands } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import type { RouteDeps } from './route-deps';

export interface FormV3RouteDeps extends RouteDeps {
  /** The organization API token check (`requireApiToken`), run for these routes only. */
  authenticate: RequestHandler;
}

/**
 * `PUT /api/v3/forms/<id>/lock` and `/unlock` (form.md): 200 with an empty body, as the doc
 * shows no body; a failure says why in the `Message` header (every failure does). A locked
 * form refuses a new definition (409). Another organization's form is 404.
 */
export function formV3Routes({ send, authenticate }: FormV3RouteDeps): Router {
  const router = Router();
  const setLocked = (locked: boolean): RequestHandler => async (req, res) => {
    await send(req, directoryCommands.lockForm, { formId: pathId(req.params['formId'], 'Form'), locked });
    res.status(200).end();
  };
  router.put('/api/v3/forms/:formId/lock{.:format}', authenticate, setLocked(true));
  router.put('/api/v3/forms/:formId/unlock{.:format}', authenticate, setLocked(false));
  return router;
}
