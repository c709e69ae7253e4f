import { AppError } from '@formcast/platform';
import { isNode, type XmlNode } from './parse-xml';

/** A submission as an XML instance gives it. */
export interface SubmissionInstance {
  /** The instance's default namespace: its form's. */
  formNamespace: string;
  /** The client's own id for the submission (`submissionIdentifier`); null when it gives none. */
  submissionIdentifier: string | null;
  /** Question identifier -> text, or an object of its children; an element given more than once, a list. */
  answers: Record<string, unknown>;
}

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1);
}

function childNames(node: XmlNode): string[] {
  return Object.keys(node).filter((name) => !name.startsWith('@_') && name !== '#text');
}

/** An element as an answer: its text (attributes ignored), or its children's answers. */
function answerOf(element: unknown, path: string): unknown {
  if (typeof element === 'string') return element;
  if (!isNode(element)) return '';
  if (childNames(element).length === 0) return typeof element['#text'] === 'string' ? element['#text'] : '';
  return answersIn(element, path);
}

/** The answers of an element's children, each named by its element; prefixed ones are in another namespace than the form's. */
function answersIn(element: XmlNode, path: string): Record<string, unknown> {
  return Object.fromEntries(
    childNames(element).map((name) => {
      if (name.includes(':')) throw new AppError('invalid', `${path}: <${name}> is not a question of the form (its elements take no prefix)`);
      const value = element[name];
      const at = `${path}.${name}`;
      return [name, Array.isArray(value) ? value.map((each) => answerOf(each, at)) : answerOf(value, at)];
    }),
  );
}

function optionalAttribute(root: XmlNode, name: string): string | null {
  const value = root[`@_${name}`];
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('invalid', `instance: ${name}, when given, must not be empty`);
  return value;
}

/**
 * A submission's XML instance, as the v3 submissions API takes it (parsed by parseXml):
 * `<instance xmlns="<form namespace>" submissionIdentifier="<uuid>"><question>answer</question>…</instance>`,
 * the root of any prefix. Each child element is the answer to the question of its name:
 * its text, or an object of its own children (a subform, a group's repetition); an element
 * given more than once is a list (XML cannot tell one repetition from a subform: push is
 * lenient there). The answers are checked against the form by push, which also takes them
 * from inside an `<inputs>` element (the form's own instance). `given`: the JSON body's
 * `form_namespace` and `submission_identifier` (submission-xml.md), used where the instance
 * has none, refused where it says otherwise.
 */
export function readSubmissionInstance(
  document: XmlNode,
  given: { formNamespace?: string | undefined; submissionIdentifier?: string | undefined } = {},
): SubmissionInstance {
  const [rootName] = Object.keys(document);
  if (rootName === undefined || localName(rootName) !== 'instance') throw new AppError('invalid', 'XML root element must be <instance>');
  const root = document[rootName];
  const element = isNode(root) ? root : {};
  const xmlns = element['@_xmlns'];
  const formNamespace = typeof xmlns === 'string' && xmlns.trim() !== '' ? xmlns : given.formNamespace;
  if (formNamespace === undefined) throw new AppError('invalid', "instance: xmlns, the form's namespace, is required");
  if (given.formNamespace !== undefined && given.formNamespace !== formNamespace) {
    throw new AppError('invalid', 'form_namespace: differs from the instance\'s xmlns');
  }
  const attribute = optionalAttribute(element, 'submissionIdentifier');
  if (attribute !== null && given.submissionIdentifier !== undefined && attribute !== given.submissionIdentifier) {
    throw new AppError('invalid', 'submission_identifier: differs from the instance\'s submissionIdentifier');
  }
  return { formNamespace, submissionIdentifier: attribute ?? given.submissionIdentifier ?? null, answers: answersIn(element, 'instance') };
}
