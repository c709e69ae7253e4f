import type { Request, RequestHandler } from 'express';
import { createGroupsPayload, directoryCommands, type CreateGroupsResult, type GroupView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { readBody } from '../http/request-body';
import { responseFormat } from '../http/response-format';
import type { SendCommand } from '../http/send-command';
import { renderGroupsXml, renderGroupXml } from '../render/groups-xml';
import { elements, elementText, isNode, rootElement } from '../xml/parse-xml';

/** How a refusal names the names and the i-th name: as the body the user sent holds them. */
interface NameLabels {
  list: string;
  item(i: number): string;
}
const jsonNames: NameLabels = { list: 'group names', item: (i) => `group names[${i}]` };
const xmlNames: NameLabels = { list: 'groups', item: (i) => `groups.group[${i}].name` };

/**
 * The names, checked by the directory's own rule (createGroupsPayload) here, so that a
 * refusal names the entry of the user's body (`group names[1]`, `groups.group[1].name`) rather
 * than the command's field (`names.1`).
 */
function checkedNames(names: unknown[], labels: NameLabels): string[] {
  const badType = names.findIndex((name) => typeof name !== 'string');
  if (badType >= 0) throw new AppError('invalid', `${labels.item(badType)}: must be a string (a group name)`);
  const checked = createGroupsPayload.safeParse({ names });
  if (checked.success) return names as string[];
  const issue = checked.error.issues[0]!;
  const [, index] = issue.path;
  throw new AppError('invalid', `${typeof index === 'number' ? labels.item(index) : labels.list}: ${issue.message}`);
}

/** Names from `["a","b"]` (the spec's JSON body: a bare array of names) or `<groups><group><name>a</name></group>…</groups>`. */
function groupNamesFromBody(req: Request): string[] {
  const body = readBody(req, { jsonRoot: jsonNames.list });
  if (body.kind === 'json') {
    if (!Array.isArray(body.value)) throw new AppError('invalid', 'Expected a JSON array of group names, e.g. ["Field team"]');
    return checkedNames(body.value, jsonNames);
  }
  if (body.kind === 'xml') {
    const groups = elements(rootElement(body.value, 'groups')['group']);
    const names = groups.map((group, i) => {
      if (!isNode(group) || group['name'] === undefined) throw new AppError('invalid', `groups.group[${i}]: must contain a <name>`);
      return elementText(group['name'], xmlNames.item(i));
    });
    return checkedNames(names, xmlNames);
  }
  throw new AppError('invalid', 'Send a JSON array of group names or XML <groups><group><name>…</name></group></groups>');
}

function idList(value: unknown, field: string): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isSafeInteger(v) && (v as number) > 0)) {
    throw new AppError('invalid', `${field}: must be an array of positive integer ids`);
  }
  return value as number[];
}

function xmlIdList(container: unknown, itemName: string, field: string): number[] {
  if (container === '' ) return [];
  if (!isNode(container)) throw new AppError('invalid', `${field}: must contain <${itemName}> elements`);
  return elements(container[itemName]).map((item) => {
    const text = elementText(item, field).trim();
    if (!/^[1-9][0-9]{0,14}$/.test(text)) throw new AppError('invalid', `${field}: "${text}" is not an id`);
    return Number(text);
  });
}

type GroupPatch = { name?: string; formIds?: number[]; deviceIds?: number[]; tags?: string[] };

function tagList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((tag) => typeof tag === 'string')) throw new AppError('invalid', 'tags: must be an array of tag names (strings)');
  return value as string[];
}

/** `<tags><name>food</name>…</tags>`, as group.md's list shows a group's tags. */
function xmlTagList(container: unknown): string[] {
  if (container === '') return [];
  if (!isNode(container)) throw new AppError('invalid', 'tags: must contain <name> elements');
  const unknown = Object.keys(container).find((key) => key !== 'name' && !key.startsWith('@_'));
  if (unknown !== undefined) throw new AppError('invalid', `tags: <${unknown}> is not a tag: write <tags><name>…</name></tags>`);
  return elements(container['name']).map((tag, i) => elementText(tag, `tags.name[${i}]`));
}

/**
 * `{"group":{name?, form_ids?, device_ids?, tags?}}` or
 * `<group><name/><form_ids><form_id/>…<tags><name/>…</tags></group>`; tags as group.md's list shows them.
 */
function groupPatchFromBody(req: Request): GroupPatch {
  const body = readBody(req);
  if (body.kind === 'json') {
    const group = (body.value as { group?: unknown } | null)?.group;
    if (typeof group !== 'object' || group === null || Array.isArray(group)) {
      throw new AppError('invalid', 'Expected a JSON object {"group": {"name", "form_ids", "device_ids"}}');
    }
    const { name, form_ids, device_ids, tags } = group as Record<string, unknown>;
    if (name !== undefined && typeof name !== 'string') throw new AppError('invalid', 'name: must be a string');
    return {
      name,
      formIds: form_ids === undefined ? undefined : idList(form_ids, 'form_ids'),
      deviceIds: device_ids === undefined ? undefined : idList(device_ids, 'device_ids'),
      tags: tags === undefined ? undefined : tagList(tags),
    };
  }
  if (body.kind === 'xml') {
    const group = rootElement(body.value, 'group');
    return {
      name: group['name'] === undefined ? undefined : elementText(group['name'], 'name'),
      formIds: group['form_ids'] === undefined ? undefined : xmlIdList(group['form_ids'], 'form_id', 'form_ids'),
      deviceIds: group['device_ids'] === undefined ? undefined : xmlIdList(group['device_ids'], 'device_id', 'device_ids'),
      tags: group['tags'] === undefined ? undefined : xmlTagList(group['tags']),
    };
  }
  throw new AppError('invalid', 'Send XML <group> or JSON {"group": {…}}');
}

/** List: XML unless the path or Accept asks for JSON, as the real product answers; `query` gives a generation's filters. */
export function listGroups(send: SendCommand, query: (req: Request) => object = () => ({})): RequestHandler {
  return async (req, res) => {
    const groups = await send<GroupView[]>(req, directoryCommands.listGroups, query(req));
    if (responseFormat(req, 'xml') === 'xml') res.type('application/xml').send(renderGroupsXml(groups));
    else res.json({ groups });
  };
}

/** Create: 201 with the created groups; 304 when every name exists already. */
export function createGroups(send: SendCommand): RequestHandler {
  return async (req, res) => {
    const names = groupNamesFromBody(req);
    const result = await send<CreateGroupsResult>(req, directoryCommands.createGroups, { names });
    if (result.created.length === 0) {
      res.status(304).end(); // every name exists already, as the real product answers
      return;
    }
    res.status(201);
    if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderGroupsXml(result.created));
    else res.json({ groups: result.created });
  };
}

export function updateGroup(send: SendCommand): RequestHandler {
  return async (req, res) => {
    const groupId = pathId(req.params['groupId'], 'Group');
    const patch = groupPatchFromBody(req);
    const group = await send<GroupView>(req, directoryCommands.updateGroup, { groupId, ...patch });
    if (responseFormat(req, 'json') === 'xml') res.type('application/xml').send(renderGroupXml(group));
    else res.json({ group });
  };
}

export function deleteGroup(send: SendCommand): RequestHandler {
  return async (req, res) => {
    const groupId = pathId(req.params['groupId'], 'Group');
    await send(req, directoryCommands.deleteGroup, { groupId });
    res.status(200).end();
  };
}
