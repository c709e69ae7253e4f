import { buildCompactXml } from './build-xml';
import { inputElements } from './input-elements';

/** The `dm:` attributes' namespace, as the real product writes it. */
const deviceMagicXformsNamespace = 'http://mobileforms.devicemagic.com/xforms';

/** What a submission's instance says; the gateway's view and delivery's event each map onto it. */
export interface SubmissionInstance {
  formNamespace: string;
  formName: string;
  formId: number;
  /** "1.00", "1.01"… */
  formVersion: string;
  deviceIdentifier: string;
  /** The client's own id for the submission; null when it gave none. */
  submissionIdentifier: string | null;
  /** When the device says the user submitted it. */
  submittedAt: string;
  /** When Formcast stored it. */
  receivedAt: string;
  /** Question identifier -> text, a subform's object of answers, a group's array of repetitions; in the order to write them. */
  answers: Record<string, unknown>;
}

/**
 * A submission's XML instance, written alike by the gateway (`GET /api/v3/submissions/<id>`)
 * and by delivery (the `xml_format` webhook body): `<instance xmlns="<form namespace>"
 * xmlns:dm="…" submissionIdentifier submittingDevice writeTime formVersion dm:submit_time
 * dm:form dm:form_id dm:form_version dm:submitting_device><inputs>…</inputs></instance>`,
 * compact as a device writes it (the product's documented example is one line). Subforms
 * nest, a group's repetitions repeat its element, an empty answer is an empty element.
 * `writeTime` is when the device says the user submitted it, `dm:submit_time` when Formcast
 * received it. `submissionIdentifier` is the client's own id, left out when it gave none: the
 * product calls it the client's, and a server id written there could equal another
 * submission's client id.
 */
export function submissionInstanceXml(submission: SubmissionInstance): string {
  return buildCompactXml('instance', {
    '@_xmlns': submission.formNamespace,
    '@_xmlns:dm': deviceMagicXformsNamespace,
    ...(submission.submissionIdentifier === null ? {} : { '@_submissionIdentifier': submission.submissionIdentifier }),
    '@_submittingDevice': submission.deviceIdentifier,
    '@_writeTime': submission.submittedAt,
    '@_formVersion': submission.formVersion,
    '@_dm:submit_time': submission.receivedAt,
    '@_dm:form': submission.formName,
    '@_dm:form_id': String(submission.formId),
    '@_dm:form_version': submission.formVersion,
    '@_dm:submitting_device': submission.deviceIdentifier,
    inputs: inputElements(submission.answers),
  });
}
