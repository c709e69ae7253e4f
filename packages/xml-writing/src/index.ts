export { buildCompactXml, buildXml, xmlArray, xmlBoolean, xmlInteger, xmlNullableText } from './build-xml';
export { inputElements } from './input-elements';
export { submissionInstanceXml, type SubmissionInstance } from './submission-instance-xml';
export { codePointLabel, escapeXmlText, firstNonXmlCharacter, xmlSafeText } from './xml-characters';
