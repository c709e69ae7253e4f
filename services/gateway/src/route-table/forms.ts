import { z } from 'zod';
import { moveFormPayload } from '@formcast/contracts';
import { schemaOf } from '../openapi/json-schema';
import { formCreatedView, formDefinitionView, formListItemView, formUpdatedView } from '../openapi/views';
import { createForm, deleteForm, listForms, moveForm, setFormLocked, showForm, updateForm } from '../routes/forms';
import { declareArea, deletedAnswer } from './declare';
import { pathIds } from './path-ids';

const definitionBody = {
  json: { type: 'object', description: 'the form definition: `type`, `title`, `children` (its questions), optionally `namespace`' },
  xml: '`<h:html>` XForms: `<h:head><h:title/><model><instance xmlns="namespace"><root><question/>…</root></instance><bind nodeset type required/>…</model></h:head><h:body>` its controls (input, textarea, secret, select1, select with items, group, repeat) in order',
} as const;

const xformsXml =
  '`<h:html>` XForms (form.md): the title, the instance in the form\'s namespace under `<inputs>`, a `<bind>` for each typed or required question, the controls in order; keys XForms has no term for are `dm:` attributes, and a definition holding one no attribute can carry (a list, a structure) is 422 naming it';

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
    {
      method: 'get',
      path: '/forms',
      openapi: {
        summary: 'List forms (templates)',
        answers: {
          200: {
            description: 'The organization\'s forms (JSON unless asked for XML)',
            json: z.strictObject({ forms: z.array(formListItemView) }),
            xml: '`<forms type="array"><form><id type="integer"/><name/><namespace/><version/><description/><group/></form>…</forms>` (form.md)',
          },
        },
      },
      hostile: [{ suffix: '.json' }, { suffix: '.xml' }],
      handler: ({ send }) => listForms(send),
    },
    {
      method: 'post',
      path: '/forms',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Create a form from its definition (JSON or XForms)',
        description: 'A definition keeping its own `namespace` keeps it; otherwise one is generated. The form joins Default at version "1.00". An XML body is XForms as form.md shows it; what it holds that a definition has no place for is refused (400), naming it.',
        body: definitionBody,
        answers: { 201: { description: 'The form created (JSON unless asked for XML)', json: formCreatedView, xml: '`<form><id type="integer"/><namespace/><name/></form>` (form.md)' } },
        errors: [400, 404, 409],
      },
      hostile: [{ json: 'form' }, { suffix: '.xml', json: 'form', xml: 'formXforms' }],
      handler: ({ send }) => createForm(send),
    },
    {
      method: 'get',
      path: '/forms/:formId',
      openapi: {
        summary: 'Show a form\'s definition (JSON, or XForms)',
        query: {
          version: {
            schema: { type: 'string', pattern: '^[0-9]{1,9}(\\.[0-9]{1,9})?$' },
            description: 'A version ("1.02") or revision (3): the current definition or an earlier one; a version the form never had is 404 naming the current one',
          },
        },
        answers: {
          200: {
            description: 'The definition as posted, with its namespace, version, description and group (JSON unless asked for XML)',
            json: formDefinitionView,
            xml: xformsXml,
          },
        },
        errors: [400, 404, 422],
      },
      hostile: [{}, { suffix: '.xml', query: 'version=1.00' }],
      handler: ({ send }) => showForm(send),
    },
    {
      method: 'put',
      path: '/forms/:formId',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Replace a form\'s definition (a new version, the one before kept; the namespace never changes)',
        body: definitionBody,
        answers: { 202: { description: 'The form at its new version (JSON unless asked for XML)', json: formUpdatedView, xml: '`<form><id type="integer"/><namespace/><name/><version/></form>` (form.md)' } },
        errors: [400, 404, 409],
      },
      hostile: [{ json: 'form' }, { suffix: '.xml', json: 'form', xml: 'formXforms' }],
      handler: ({ send }) => updateForm(send),
    },
    {
      method: 'delete',
      path: '/forms/:formId',
      suffixes: '.json',
      openapi: {
        summary: 'Delete a form',
        answers: deletedAnswer,
      },
      hostile: [{}],
      handler: ({ send }) => deleteForm(send),
    },
    {
      method: 'post',
      path: '/forms/:formId/properties',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Move a form to another group',
        body: {
          json: { type: 'object', properties: { group: schemaOf(moveFormPayload.shape.group, 'input') }, required: ['group'] },
          xml: '`<form_properties><group>Unpublished</group></form_properties>` (form.md)',
        },
        answers: {
          200: {
            description: 'The form in its new group (JSON unless the suffix, Content-Type or Accept asks for XML)',
            json: z.strictObject({ form: formListItemView }),
            xml: '`<form><id type="integer"/><namespace/><name/><version/><description/><group/></form>`',
          },
        },
      },
      hostile: [{ json: 'formProperties', xml: 'formPropertiesXml' }],
      handler: ({ send }) => moveForm(send),
    },
  ],
});

/** `PUT /api/v3/forms/<id>/lock` and `/unlock` (form.md): another organization's form is 404. */
export const formLocks = declareArea({
  name: 'forms',
  mount: '/api/v3/forms',
  tag: 'Organization (first generation)',
  routes: [
    {
      method: 'put',
      path: '/:formId/lock',
      openapi: {
        summary: 'Lock a form: it takes no new definition (409) until unlocked (form.md)',
        description: 'A failure says why in the `Message` header, as every failure does.',
        answers: { 200: { description: 'Locked (empty body); locking a locked form is no error' } },
      },
      handler: ({ send }) => setFormLocked(send, true),
    },
    {
      method: 'put',
      path: '/:formId/unlock',
      openapi: {
        summary: 'Unlock a form (form.md)',
        description: 'A failure says why in the `Message` header, as every failure does.',
        answers: { 200: { description: 'Unlocked (empty body)' } },
      },
      hostile: [{}],
      handler: ({ send }) => setFormLocked(send, false),
    },
  ],
});
