import type { SubmissionReceivedPayload } from '@formcast/contracts';
import { XMLBuilder } from 'fast-xml-parser';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: false,
  suppressEmptyNode: true,
  processEntities: true,
});

const dmNamespace = 'http://mobileforms.devicemagic.com/xforms';
/** Question identifiers (the directory's rule); anything else could not be an element name. */
const elementName = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/;
/** Characters XML 1.0 does not allow, even escaped. */
const notXmlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The submission as the real product's original XML: `<instance xmlns="<form namespace>"
 * xmlns:dm="…" submissionIdentifier submittingDevice writeTime formVersion dm:submit_time
 * dm:form dm:form_id dm:form_version dm:submitting_device><inputs>…</inputs></instance>`.
 * `writeTime` is when the device says it was submitted, `dm:submit_time` when the server
 * received it; without a client id, the submission's own id identifies it. Subforms nest,
 * a group's repetitions repeat its element.
 */
export function xmlBody(submission: SubmissionReceivedPayload): string {
  const instance = {
    '@_xmlns': submission.formNamespace,
    '@_xmlns:dm': dmNamespace,
    '@_submissionIdentifier': submission.clientSubmissionId ?? String(submission.submissionId),
    '@_submittingDevice': submission.deviceIdentifier,
    '@_writeTime': submission.submittedAt,
    '@_formVersion': submission.formVersion,
    '@_dm:submit_time': submission.receivedAt,
    '@_dm:form': submission.formName,
    '@_dm:form_id': String(submission.formId),
    '@_dm:form_version': submission.formVersion,
    '@_dm:submitting_device': submission.deviceIdentifier,
    inputs: elements(submission.answers),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ instance: clean(instance) })}`;
}

/** Answers as the builder's element tree; names that are not question identifiers are left out. */
function elements(answers: Record<string, unknown>): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answers)) {
    if (elementName.test(name)) tree[name] = element(value);
  }
  return tree;
}

function element(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(element);
  if (typeof value === 'object' && value !== null) return elements(value as Record<string, unknown>);
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** Every text and attribute with the characters XML cannot carry removed. */
function clean(node: unknown): unknown {
  if (typeof node === 'string') return node.replace(notXmlCharacters, '');
  if (Array.isArray(node)) return node.map(clean);
  if (typeof node === 'object' && node !== null) {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, clean(value)]));
  }
  return node;
}
