import type { SubmissionInstanceView } from '@formcast/contracts';
import { buildXml } from '../xml/build-xml';
import { inputElements } from './input-elements';

/** The `dm:` attributes' namespace, as the real product writes it. */
export const deviceMagicXformsNamespace = 'http://mobileforms.devicemagic.com/xforms';

/**
 * A submission's XML instance (`GET /api/v3/submissions/<id>`), with the documented attributes:
 * `<instance xmlns="<form namespace>" xmlns:dm="…" submissionIdentifier submittingDevice
 * writeTime formVersion dm:submit_time dm:form dm:form_id dm:form_version dm:submitting_device>
 * <inputs>…</inputs></instance>`. Rendered from the stored answers: subforms as nested
 * elements, a group's repetitions as repeated elements. `writeTime` is when the device says
 * the user submitted it, `dm:submit_time` when Formcast received it (UTC, ISO 8601).
 * `submissionIdentifier` is the client's own id, left out when it gave none.
 */
export function renderSubmissionInstanceXml(submission: SubmissionInstanceView): string {
  return buildXml('instance', {
    '@_xmlns': submission.form_namespace,
    '@_xmlns:dm': deviceMagicXformsNamespace,
    ...(submission.submission_identifier === null ? {} : { '@_submissionIdentifier': submission.submission_identifier }),
    '@_submittingDevice': submission.device_identifier,
    '@_writeTime': submission.submitted_at,
    '@_formVersion': submission.form_version,
    '@_dm:submit_time': submission.received_at,
    '@_dm:form': submission.form_name,
    '@_dm:form_id': String(submission.form_id),
    '@_dm:form_version': submission.form_version,
    '@_dm:submitting_device': submission.device_identifier,
    inputs: inputElements(submission.answers),
  });
}
