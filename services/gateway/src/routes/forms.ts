import { Router } from 'express';
import { directoryCommands, type FormListItemView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { jsonBody } from '../http/request-body';
import type { RouteDeps } from './route-deps';

/** Forms (templates) API as observed; JSON only. Mounted under /organizations/:orgId. */
export function formRoutes({ send }: RouteDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/forms{.json}', async (req, res) => {
    res.json({ forms: await send<FormListItemView[]>(req, directoryCommands.listForms, {}) });
  });

  router.post('/forms{.json}', async (req, res) => {
    const definition = jsonBody(req);
    res.status(201).json(await send(req, directoryCommands.createForm, { definition }));
  });

  router.get('/forms/:formId{.json}', async (req, res) => {
    const formId = pathId(req.params['formId'], 'Form');
    res.json(await send(req, directoryCommands.getForm, { formId }));
  });

  router.put('/forms/:formId{.json}', async (req, res) => {
    const formId = pathId(req.params['formId'], 'Form');
    const definition = jsonBody(req);
    res.status(202).json(await send(req, directoryCommands.updateForm, { formId, definition }));
  });

  router.delete('/forms/:formId{.json}', async (req, res) => {
    const formId = pathId(req.params['formId'], 'Form');
    await send(req, directoryCommands.deleteForm, { formId });
    res.status(200).end();
  });

  router.post('/forms/:formId/properties{.json}', async (req, res) => {
    const formId = pathId(req.params['formId'], 'Form');
    const body = jsonBody(req) as { group?: unknown } | null;
    if (typeof body?.group !== 'string') throw new AppError('invalid', 'group: the name of the group to move the form to');
    res.json({ form: await send<FormListItemView>(req, directoryCommands.moveForm, { formId, group: body.group }) });
  });

  return router;
}
