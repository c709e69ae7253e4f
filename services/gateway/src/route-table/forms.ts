import { z } from 'zod';
import { moveFormPayload } from '@formcast/contracts';
import { schemaOf } from '../openapi/json-schema';
import { answerOf } from '../openapi/operation-parts';
import { formCreatedView, formDefinitionView, formListItemView, formUpdatedView } from '../openapi/views';
import { createForm, deleteForm, listForms, moveForm, setFormLocked, showForm, updateForm } from '../routes/forms';
import { declareArea, type RouteSpec } from './declare';
import { action, deletion, read, write } from './route-kinds';

const definitionBody = {
  json: { type: 'object', description: 'the form definition: `type`, `title`, `children` (its questions), optionally `namespace`' },
  xml: '`<h:html>` XForms: `<h:head><h:title/><model><instance xmlns="namespace"><root><question/>…</root></instance><bind nodeset type required/>…</model></h:head><h:body>` its controls (input, textarea, secret, select1, select with items, group, repeat) in order',
} as const;

const xformsXml =
  '`<h:html>` XForms (form.md): the title, the instance in the form\'s namespace under `<inputs>`, a `<bind>` for each typed or required question, the controls in order; keys XForms has no term for are `dm:` attributes, and a definition holding one no attribute can carry (a list, a structure) is 422 naming it';

/** Create and replace take a definition, as JSON or XForms; a definition its form's state refuses is 409. */
const withDefinition = (method: 'post' | 'put', path: string, handler: RouteSpec['handler'], operation: Pick<RouteSpec['openapi'], 'summary' | 'description' | 'answers'>): RouteSpec =>
  write(method, path, [{ json: 'form' }, { suffix: '.xml', json: 'form', xml: 'formXforms' }], handler, { ...operation, body: definitionBody, errors: [400, 404, 409] });

/**
 * Forms (templates) as observed and as form.md documents them: the list in JSON or XML; the
 * definition in JSON or as XForms (`<h:html>`); create and update from JSON or XForms;
 * the properties. Mounted under /organizations/:orgId (authenticated and scoped by the mount).
 */
export const forms = declareArea({
  name: 'forms',
  mount: '/organizations/:orgId',
  tag: 'Organization (first generation)',
  routes: [
    read(
      '/forms',
      'List forms (templates)',
      answerOf(
        'The organization\'s forms (JSON unless asked for XML)',
        { forms: z.array(formListItemView) },
        '`<forms type="array"><form><id type="integer"/><name/><namespace/><version/><description/><group/></form>…</forms>` (form.md)',
      ),
      ({ send }) => listForms(send),
      { hostile: [{ suffix: '.json' }, { suffix: '.xml' }] },
    ),
    withDefinition('post', '/forms', ({ send }) => createForm(send), {
      summary: 'Create a form from its definition (JSON or XForms)',
      description: 'A definition keeping its own `namespace` keeps it; otherwise one is generated. The form joins Default at version "1.00". An XML body is XForms as form.md shows it; what it holds that a definition has no place for is refused (400), naming it.',
      answers: { 201: { description: 'The form created (JSON unless asked for XML)', json: formCreatedView, xml: '`<form><id type="integer"/><namespace/><name/></form>` (form.md)' } },
    }),
    read(
      '/forms/:formId',
      'Show a form\'s definition (JSON, or XForms)',
      { description: 'The definition as posted, with its namespace, version, description and group (JSON unless asked for XML)', json: formDefinitionView, xml: xformsXml },
      ({ send }) => showForm(send),
      {
        openapi: {
          query: {
            version: {
              schema: { type: 'string', pattern: '^[0-9]{1,9}(\\.[0-9]{1,9})?$' },
              description: 'A version ("1.02") or revision (3): the current definition or an earlier one; a version the form never had is 404 naming the current one',
            },
          },
          errors: [400, 404, 422],
        },
        hostile: [{}, { suffix: '.xml', query: 'version=1.00' }],
      },
    ),
    withDefinition('put', '/forms/:formId', ({ send }) => updateForm(send), {
      summary: 'Replace a form\'s definition (a new version, the one before kept; the namespace never changes)',
      answers: { 202: { description: 'The form at its new version (JSON unless asked for XML)', json: formUpdatedView, xml: '`<form><id type="integer"/><namespace/><name/><version/></form>` (form.md)' } },
    }),
    deletion('/forms/:formId', 'Delete a form', ({ send }) => deleteForm(send), { suffixes: '.json', hostile: [{}] }),
    write('post', '/forms/:formId/properties', [{ json: 'formProperties', xml: 'formPropertiesXml' }], ({ send }) => moveForm(send), {
      summary: 'Move a form to another group',
      body: {
        json: { type: 'object', properties: { group: schemaOf(moveFormPayload.shape.group, 'input') }, required: ['group'] },
        xml: '`<form_properties><group>Unpublished</group></form_properties>` (form.md)',
      },
      answers: {
        200: answerOf(
          'The form in its new group (JSON unless the suffix, Content-Type or Accept asks for XML)',
          { form: formListItemView },
          '`<form><id type="integer"/><namespace/><name/><version/><description/><group/></form>`',
        ),
      },
    }),
  ],
});

const failureSaysWhy = { openapi: { description: 'A failure says why in the `Message` header, as every failure does.' } };

/** `PUT /api/v3/forms/<id>/lock` and `/unlock` (form.md): another organization's form is 404. */
export const formLocks = declareArea({
  name: 'forms',
  mount: '/api/v3/forms',
  tag: 'Organization (first generation)',
  routes: [
    action(
      'put',
      '/:formId/lock',
      'Lock a form: it takes no new definition (409) until unlocked (form.md)',
      { 200: { description: 'Locked (empty body); locking a locked form is no error' } },
      ({ send }) => setFormLocked(send, true),
      failureSaysWhy,
    ),
    action('put', '/:formId/unlock', 'Unlock a form (form.md)', { 200: { description: 'Unlocked (empty body)' } }, ({ send }) => setFormLocked(send, false), { ...failureSaysWhy, hostile: [{}] }),
  ],
});
