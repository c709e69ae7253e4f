import { AppError } from '@formcast/platform';
import { escapeXmlText } from '@formcast/xml-writing';
import {
  attributeName,
  bindTypeOfType,
  controlOfType,
  definitionKeysOfXforms,
  dmNamespace,
  eventsNamespace,
  isChoiceType,
  isContainerType,
  questionKeysOfXforms,
  xformsNamespace,
  xhtmlNamespace,
  xsdNamespace,
} from './xforms-vocabulary';

type Json = Record<string, unknown>;

/** An element written by hand: XForms interleaves controls of several names, in the definition's order. */
interface Element {
  name: string;
  attributes?: [string, string][];
  text?: string;
  children?: Element[];
}

function write(element: Element, indent: string): string {
  const attributes = (element.attributes ?? []).map(([name, value]) => ` ${name}="${escapeXmlText(value)}"`).join('');
  const open = `${indent}<${element.name}${attributes}`;
  if (element.children && element.children.length > 0) {
    const inner = element.children.map((child) => write(child, `${indent}  `)).join('');
    return `${open}>\n${inner}${indent}</${element.name}>\n`;
  }
  if (element.text !== undefined && element.text !== '') return `${open}>${escapeXmlText(element.text)}</${element.name}>\n`;
  return `${open}/>\n`;
}

/** What XForms cannot show refuses the rendering, naming it: the definition stays readable as JSON. */
function cannotShow(path: string, what: string): never {
  throw new AppError('unprocessable', `${path}: ${what}, which XForms cannot show; GET the definition as .json`);
}

/** Other keys, written as `dm:` attributes; only text, numbers and booleans can be. */
function dmAttributes(object: Json, ownKeys: Set<string>, path: string): [string, string][] {
  return Object.entries(object)
    .filter(([key, value]) => !ownKeys.has(key) && value !== undefined && value !== null)
    .map(([key, value]) => {
      if (!attributeName.test(key)) cannotShow(`${path}.${key}`, 'a key that is not an XML name');
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') cannotShow(`${path}.${key}`, `a ${Array.isArray(value) ? 'list' : 'structure'}`);
      return [`dm:${key}`, String(value)];
    });
}

/** A choice question's options: text, or `{value, title}` (`label` for title). */
function items(question: Json, path: string): Element[] {
  if (question['options'] !== undefined && question['choices'] !== undefined) cannotShow(path, 'both options and choices');
  const key = question['options'] !== undefined ? 'options' : 'choices';
  const list = question[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) cannotShow(`${path}.${key}`, 'options that are not a list');
  return list.map((option, i) => {
    if (typeof option === 'string') return { name: 'item', children: [{ name: 'label', text: option }, { name: 'value', text: option }] };
    const at = `${path}.${key}[${i}]`;
    if (typeof option !== 'object' || option === null || Array.isArray(option)) cannotShow(at, 'an option that is neither text nor {value, title}');
    const { value, title, label, ...rest } = option as Json;
    const other = Object.keys(rest)[0];
    if (other !== undefined) cannotShow(`${at}.${other}`, 'an option key other than value and title');
    const shown = title ?? label ?? value;
    if (typeof value !== 'string' || typeof shown !== 'string') cannotShow(at, 'an option whose value or title is not text');
    return { name: 'item', children: [{ name: 'label', text: shown }, { name: 'value', text: value }] };
  });
}

interface Rendered {
  instance: Element[];
  binds: Element[];
  controls: Element[];
}

function renderQuestions(questions: unknown[], parentPath: string, path: string): Rendered {
  const rendered: Rendered = { instance: [], binds: [], controls: [] };
  questions.forEach((entry, i) => {
    const at = `${path}[${i}]`;
    const question = entry as Json;
    const identifier = String(question['identifier']);
    const type = String(question['type']);
    const nodeset = `${parentPath}/${identifier}`;
    const control = controlOfType[type] ?? 'input';
    const children: Element[] = [];
    if (question['title'] !== undefined) children.push({ name: 'label', text: String(question['title']) });
    if (question['hint'] !== undefined) {
      if (typeof question['hint'] !== 'string') cannotShow(`${at}.hint`, 'a hint that is not text');
      children.push({ name: 'hint', text: question['hint'] });
    }
    if (question['required'] !== undefined && typeof question['required'] !== 'boolean') cannotShow(`${at}.required`, 'required that is not true or false');
    const extraKeys = isChoiceType(type) ? questionKeysOfXforms : new Set([...questionKeysOfXforms].filter((key) => key !== 'options' && key !== 'choices'));
    const attributes: [string, string][] = [[type === 'group' ? 'nodeset' : 'ref', identifier], ...dmAttributes(question, extraKeys, at)];
    if (isChoiceType(type)) children.push(...items(question, at));
    const bindAttributes: [string, string][] = [];
    if (bindTypeOfType[type]) bindAttributes.push(['type', bindTypeOfType[type]]);
    if (question['required'] === true) bindAttributes.push(['required', 'true()']);
    if (bindAttributes.length > 0) rendered.binds.push({ name: 'bind', attributes: [['nodeset', nodeset], ...bindAttributes] });
    if (isContainerType(type)) {
      const inner = renderQuestions(Array.isArray(question['children']) ? question['children'] : [], nodeset, `${at}.children`);
      rendered.instance.push({ name: identifier, children: inner.instance });
      rendered.binds.push(...inner.binds);
      children.push(...inner.controls);
    } else {
      rendered.instance.push({ name: identifier });
    }
    rendered.controls.push({ name: control, attributes, children });
  });
  return rendered;
}

/**
 * A form's definition as XForms, as form.md shows it: `<h:html>` with the title, the
 * instance (in the form's namespace, under `<inputs>`), a `<bind>` for each question whose
 * type or requirement the control does not say, and the controls in the definition's order.
 * The definition's description and other keys XForms has no term for are `dm:` attributes;
 * a key that no attribute can carry (a list, a structure) is refused (422), naming it.
 */
export function definitionToXforms(definition: Json): string {
  const questions = Array.isArray(definition['children']) ? definition['children'] : [];
  const { instance, binds, controls } = renderQuestions(questions, '/inputs', 'children');
  const html: Element = {
    name: 'h:html',
    attributes: [
      ['xmlns:h', xhtmlNamespace],
      ['xmlns:dm', dmNamespace],
      ['xmlns:xsd', xsdNamespace],
      ['xmlns:ev', eventsNamespace],
      ['xmlns', xformsNamespace],
      ...dmAttributes(definition, definitionKeysOfXforms, 'definition'),
    ],
    children: [
      {
        name: 'h:head',
        children: [
          { name: 'h:title', text: String(definition['title'] ?? '') },
          {
            name: 'model',
            children: [{ name: 'instance', attributes: [['xmlns', String(definition['namespace'] ?? '')]], children: [{ name: 'inputs', children: instance }] }, ...binds],
          },
        ],
      },
      { name: 'h:body', children: controls },
    ],
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${write(html, '')}`;
}
