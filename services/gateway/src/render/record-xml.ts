import { buildXml, xmlArray } from '@formcast/xml-writing';

/**
 * A record's two XML documents, Rails style, from its element: the list
 * (`<devices type="array"><device>…</device>…</devices>`) and the one (`<device>…</device>`).
 */
export function recordXml<Record_>(listName: string, itemName: string, element: (record: Record_) => Record<string, unknown>) {
  return {
    list: (records: Record_[]): string => buildXml(listName, xmlArray(itemName, records.map(element))),
    one: (record: Record_): string => buildXml(itemName, element(record)),
  };
}
