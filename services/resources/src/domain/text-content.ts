import { XMLValidator } from 'fast-xml-parser';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8 (a leading BOM is dropped), else null. */
export function decodeUtf8(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The parsed JSON value, or why the text is not JSON. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // The parser's message can quote the file; only its position is kept.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return { ok: false, reason: position === undefined ? 'it is not valid JSON' : `it is not valid JSON (at position ${position})` };
  }
}

/**
 * The same refusal as the gateway's XML parsing (services/gateway/src/xml/parse-xml.ts):
 * any DOCTYPE or entity declaration, the classic XXE and billion-laughs vectors.
 */
const declarationPattern = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i;

/** Null when the text is well-formed XML without declarations, else why not. */
export function xmlProblem(text: string): string | null {
  if (declarationPattern.test(text)) return 'XML with a DOCTYPE or entity declarations is not accepted';
  const valid = XMLValidator.validate(text);
  if (valid !== true) return `it is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`;
  return null;
}
