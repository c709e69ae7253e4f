import type { GroupView } from '@formcast/contracts';
import { xmlArray, xmlInteger } from '@formcast/xml-writing';
import { recordXml } from './record-xml';

function groupElement(group: GroupView): Record<string, unknown> {
  return {
    id: xmlInteger(group.id),
    name: group.name,
    form_ids: xmlArray('form_id', group.form_ids.map(xmlInteger)),
    device_ids: xmlArray('device_id', group.device_ids.map(xmlInteger)),
    // group.md: `<tags type="array"><name>food</name>…`.
    tags: xmlArray('name', group.tags),
  };
}

/** `<groups type="array"><group><id/><name/><form_ids><form_id/>…` as spec 4.2, with group.md's `<tags>`. */
export const { list: renderGroupsXml, one: renderGroupXml } = recordXml('groups', 'group', groupElement);
