/** Question identifiers are XML names (the directory checks them); anything else would corrupt the document. */
const questionName = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** An answer as elements: text, a subform's questions as children, a group's repetitions as repeated elements. */
function inputElement(value: unknown): unknown {
  if (value === null || value === undefined) return { '@_nil': 'true' };
  if (Array.isArray(value)) return value.map(inputElement);
  if (typeof value === 'object') return inputElements(value as Record<string, unknown>);
  return String(value);
}

/** Question identifier -> answer, as the children of `<inputs>` (a dispatch's, a submission's), for buildXml. */
export function inputElements(inputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(inputs).map(([question, value]) => {
      if (!questionName.test(question)) throw new Error(`An input named ${JSON.stringify(question)} is not an XML name`);
      return [question, inputElement(value)];
    }),
  );
}
