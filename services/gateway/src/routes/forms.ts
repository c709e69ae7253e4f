import { Router, type Request } from 'express';
import { directoryCommands, type FormListItemView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { jsonBody, readBody } from '../http/request-body';
import { responseFormat } from '../http/response-format';
import { renderFormsXml, renderFormXml } from '../render/forms-xml';
import { elementText, rootElement } from '../xml/parse-xml';
import type { RouteDeps } from './route-deps';

/** `?version=`: the version as the list shows it (`1.02`) or the revision (`2`). */
function versionQuery(req: Request): string | undefined {
  const value = req.query['version'];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,9}(\.[0-9]{1,9})?$/.test(value)) throw new AppError('invalid', 'version: a form version, as "1.02", or its revision, as 2');
  return value;
}

/** `{"group": "…"}` or `<form_properties><group>…</group></form_properties>` (form.md). */
function groupFromBody(req: Request): string {
  const body = readBody(req);
  const group =
    body.kind === 'json'
      ? (body.value as { group?: unknown } | null)?.group
      : body.kind === 'xml'
        ? (() => {
            const properties = rootElement(body.value, 'form_properties');
            return properties['group'] === undefined ? undefined : elementText(properties['group'], 'form_properties.group');
          })()
        : undefined;
  if (typeof group !== 'string') throw new AppError('invalid', 'group: the name of the group to move the form to ({"group": "…"} or <form_properties><group>…</group></form_properties>)');
  return group;
}

/**
 * Forms (templates) API as observed and as form.md documents it: the list in JSON or XML
 * (`<forms><form>`), the definition with its version and group (`?version=`: the current one;
 * earlier ones are not kept), the properties in JSON or XML. Mounted under /organizations/:orgId.
 */
export function formRoutes({ send }: RouteDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/forms{.:format}', async (req, res) => {
    const forms = await send<FormListItemView[]>(req, directoryCommands.listForms, {});
    if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderFormsXml(forms));
    else res.json({ forms });
  });

  router.post('/forms{.json}', async (req, res) => {
    const definition = jsonBody(req);
    res.status(201).json(await send(req, directoryCommands.createForm, { definition }));
  });

  router.get('/forms/:formId{.json}', async (req, res) => {
    const formId = pathId(req.params['formId'], 'Form');
    res.json(await send(req, directoryCommands.getForm, { formId, version: versionQuery(req) }));
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

  router.post('/forms/:formId/properties{.:format}', async (req, res) => {
    const formId = pathId(req.params['formId'], 'Form');
    const form = await send<FormListItemView>(req, directoryCommands.moveForm, { formId, group: groupFromBody(req) });
    if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderFormXml(form));
    else res.json({ form });
  });

  return router;
}
