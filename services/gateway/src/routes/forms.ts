import type { Request, RequestHandler } from 'express';
import { directoryCommands, type FormCreatedView, type FormListItemView, type FormUpdatedView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { bodyText, isXmlBody, jsonBody, readBody } from '../http/request-body';
import { responseFormat } from '../http/response-format';
import { renderFormsXml, renderFormXml } from '../render/forms-xml';
import { elementText, rootElement } from '../xml/parse-xml';
import { definitionToXforms } from '../xforms/definition-to-xforms';
import { xformsToDefinition } from '../xforms/xforms-to-definition';
import type { SendCommand } from '../http/send-command';

/** `?version=`: the version as the list shows it (`1.02`) or the revision (`2`). */
function versionQuery(req: Request): string | undefined {
  const value = req.query['version'];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,9}(\.[0-9]{1,9})?$/.test(value)) throw new AppError('invalid', 'version: a form version, as "1.02", or its revision, as 2');
  return value;
}

/** A definition as JSON, or as XForms (`<h:html>`, form.md) when the body is XML. */
function definitionFromBody(req: Request): unknown {
  if (!isXmlBody(req)) return jsonBody(req);
  const text = bodyText(req);
  if (text === '') throw new AppError('invalid', 'An XForms body (<h:html>) is required');
  return xformsToDefinition(text);
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

/** The list, in JSON or XML (`<forms><form>`). */
export const listForms = (send: SendCommand): RequestHandler => async (req, res) => {
  const forms = await send<FormListItemView[]>(req, directoryCommands.listForms, {});
  if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderFormsXml(forms));
  else res.json({ forms });
};

/** Create from JSON or XForms, answered in either (`<form>`). */
export const createForm = (send: SendCommand): RequestHandler => async (req, res) => {
  const format = responseFormat(req, 'json');
  const definition = definitionFromBody(req);
  const created = await send<FormCreatedView>(req, directoryCommands.createForm, { definition });
  res.status(201);
  if (format === 'xml') res.type('application/xml').send(renderFormXml(created));
  else res.json(created);
};

/** The definition with its version and group in JSON, or as XForms (`<h:html>`), of the current version or an earlier one (`?version=`). */
export const showForm = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = pathId(req.params['formId'], 'Form');
  const format = responseFormat(req, 'json');
  const definition = await send<Record<string, unknown>>(req, directoryCommands.getForm, { formId, version: versionQuery(req) });
  if (format === 'xml') res.type('application/xml').send(definitionToXforms(definition));
  else res.json(definition);
};

export const updateForm = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = pathId(req.params['formId'], 'Form');
  const format = responseFormat(req, 'json');
  const definition = definitionFromBody(req);
  const updated = await send<FormUpdatedView>(req, directoryCommands.updateForm, { formId, definition });
  res.status(202);
  if (format === 'xml') res.type('application/xml').send(renderFormXml(updated));
  else res.json(updated);
};

export const deleteForm = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = pathId(req.params['formId'], 'Form');
  await send(req, directoryCommands.deleteForm, { formId });
  res.status(200).end();
};

/** The properties in JSON or XML: the form's group. */
export const moveForm = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = pathId(req.params['formId'], 'Form');
  const form = await send<FormListItemView>(req, directoryCommands.moveForm, { formId, group: groupFromBody(req) });
  if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderFormXml(form));
  else res.json({ form });
};

/**
 * `PUT /api/v3/forms/<id>/lock` and `/unlock` (form.md): 200 with an empty body, as the doc
 * shows no body; a failure says why in the `Message` header (every failure does). A locked
 * form refuses a new definition (409).
 */
export const setFormLocked = (send: SendCommand, locked: boolean): RequestHandler => async (req, res) => {
  await send(req, directoryCommands.lockForm, { formId: pathId(req.params['formId'], 'Form'), locked });
  res.status(200).end();
};
