import { AppError } from '@formcast/platform';
import { maxXmlDepth } from '../xml/parse-xml';

/** JSON bodies nest no deeper than XML ones. */
export const maxJsonDepth = maxXmlDepth;

const openBrace = 0x7b;
const openBracket = 0x5b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;

/** The refusal of a JSON body nested deeper than `maxDepth`. */
export function jsonTooDeep(maxDepth = maxJsonDepth): AppError {
  return new AppError('invalid', `The JSON body is nested deeper than ${maxDepth} levels`);
}

/**
 * Refuses JSON text whose objects and arrays nest deeper than `maxDepth` (`[]` is one level),
 * by counting brackets outside strings, before JSON.parse builds it: a value thousands of
 * levels deep parses, but then breaks what serializes it on the way to a service. Malformed
 * text is left to JSON.parse.
 */
export function refuseDeepJson(text: string, maxDepth = maxJsonDepth): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === backslash) i++;
      else if (code === quote) inString = false;
    } else if (code === quote) {
      inString = true;
    } else if (code === openBrace || code === openBracket) {
      if (++depth > maxDepth) throw jsonTooDeep(maxDepth);
    } else if (code === closeBrace || code === closeBracket) {
      depth--;
    }
  }
}
