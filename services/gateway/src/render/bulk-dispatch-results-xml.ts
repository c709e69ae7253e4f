import type { BulkDispatchResult } from '@formcast/contracts';
import { buildXml, xmlArray, xmlInteger } from '@formcast/xml-writing';

function resultElement(result: BulkDispatchResult): Record<string, unknown> {
  if ('error' in result) return { status: xmlInteger(result.status), error: { code: result.error.code, message: result.error.message } };
  return { status: xmlInteger(result.status), id: xmlInteger(result.id), namespace: result.namespace, name: result.name };
}

/**
 * A bulk dispatch's answer, one `<result>` per item in the request's order:
 * `<results type="array"><result><status type="integer">202</status><id type="integer">…</id>
 * <namespace/><name/></result>`, or `<status>` and `<error><code/><message/></error>`.
 */
export function renderBulkDispatchResultsXml(results: BulkDispatchResult[]): string {
  return buildXml('results', xmlArray('result', results.map(resultElement)));
}
