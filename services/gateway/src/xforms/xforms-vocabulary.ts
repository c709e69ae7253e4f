/**
 * How a form definition's question types are written in XForms (form.md's `<h:html>`), one
 * table read both ways: rendering a definition (definition-to-xforms.ts) and reading one
 * (xforms-to-definition.ts). A type that has a control of its own is written as that control;
 * the others are an `<input>` whose `<bind>` names the type, in XML Schema's terms where it has
 * one, else in Device Magic's (`dm:`).
 */

export const xformsNamespace = 'http://www.w3.org/2002/xforms';
export const xhtmlNamespace = 'http://www.w3.org/1999/xhtml';
export const dmNamespace = 'http://www.devicemagic.com/XMLSchemaDataTypes';
export const xsdNamespace = 'http://www.w3.org/2001/XMLSchema';
export const eventsNamespace = 'http://www.w3.org/2001/xml-events';

/** Question type → its own control. */
export const controlOfType: Record<string, string> = {
  textarea: 'textarea',
  password: 'secret',
  select1: 'select1',
  select: 'select',
  subform: 'group',
  group: 'repeat',
};

/** Control → question type (`input` is text, or the type its bind names). */
export const typeOfControl: Record<string, string> = Object.fromEntries(Object.entries(controlOfType).map(([type, control]) => [control, type]));

/** Question type → the bind type of its `<input>`. */
export const bindTypeOfType: Record<string, string> = {
  integer: 'xsd:integer',
  decimal: 'xsd:decimal',
  date: 'xsd:date',
  datetime: 'xsd:dateTime',
  time: 'xsd:time',
  boolean: 'xsd:boolean',
  email: 'dm:email',
  phone: 'dm:phone',
  barcode: 'dm:barcode',
  note: 'dm:note',
  calculate: 'dm:calculate',
  image: 'dm:image',
  sketch: 'dm:sketch',
  signature: 'dm:signature',
  location: 'dm:location',
};

/** Bind type → question type; a text input's bind may name `xsd:string` or nothing. */
export const typeOfBindType: Record<string, string> = {
  ...Object.fromEntries(Object.entries(bindTypeOfType).map(([type, bindType]) => [bindType, type])),
  'xsd:string': 'text',
};

/** The question's keys XForms writes in its own terms; any other key is a `dm:` attribute of its control. */
export const questionKeysOfXforms = new Set(['identifier', 'type', 'title', 'children', 'hint', 'required', 'options', 'choices']);

/** The definition's keys XForms writes in its own terms, or that the form shows beside it (version, group). */
export const definitionKeysOfXforms = new Set(['type', 'title', 'namespace', 'children', 'version', 'group']);

/** A name a `dm:` attribute can have. */
export const attributeName = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** Whether a question of this type holds its questions. */
export const isContainerType = (type: string): boolean => type === 'subform' || type === 'group';

/** Whether a question of this type offers choices (`<item>`s). */
export const isChoiceType = (type: string): boolean => type === 'select1' || type === 'select';
