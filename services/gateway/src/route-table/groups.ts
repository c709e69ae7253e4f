import { z } from 'zod';
import { createGroupsPayload, listGroupsPayload, updateGroupPayload } from '@formcast/contracts';
import { fieldOf, schemaOf } from '../openapi/json-schema';
import { answerOf, wrappedBody } from '../openapi/operation-parts';
import { groupView } from '../openapi/views';
import { createGroups, deleteGroup, listGroups, updateGroup } from '../routes/groups';
import { listGroupsV2 } from '../routes/groups-v2';
import type { RouteArea } from './declaration';
import { declareArea, type RouteSpec } from './declare';
import { deletion, read, write } from './route-kinds';

/** Groups (spec 4.2, group.md): the first generation's routes and the second's, over the same handlers and commands. */

const groupNamesBody = {
  json: schemaOf(createGroupsPayload.shape.names, 'input'),
  xml: '`<groups><group><name>Field team</name></group>…</groups>`',
  description: 'The names of the groups to create',
};

const { shape: groupPatch } = updateGroupPayload;
const groupPatchBody = {
  json: wrappedBody('group', {
    name: schemaOf(groupPatch.name.unwrap(), 'input'),
    form_ids: { ...schemaOf(groupPatch.formIds.unwrap(), 'input'), description: 'replaces the group\'s forms (those dropped go back to Default)' },
    device_ids: { ...schemaOf(groupPatch.deviceIds.unwrap(), 'input'), description: 'replaces the group\'s devices' },
    tags: { ...schemaOf(groupPatch.tags.unwrap(), 'input'), description: 'replaces the group\'s tags (group.md: the v2 list shows and filters them)' },
  }),
  xml: '`<group><name/><form_ids><form_id>1</form_id>…</form_ids><device_ids><device_id>1</device_id>…</device_ids><tags><name>food</name>…</tags></group>`',
};

const groupsXml = '`<groups type="array"><group><id/><name/><form_ids><form_id/>…</form_ids><device_ids><device_id/>…</device_ids><tags><name/>…</tags></group>…</groups>`';

const groupsAnswer = answerOf('The organization\'s groups (XML unless asked for JSON)', { groups: z.array(groupView) }, groupsXml);

/** The writes of groups, wherever they are mounted; `where` says so in the summary. */
function groupWrites(where: string): RouteSpec[] {
  const saying = (summary: string) => (where ? `${summary} (${where})` : summary);
  return [
    write('post', '/groups', [{ json: 'groupNames', xml: 'groupNamesXml' }], ({ send }) => createGroups(send), {
      summary: saying('Create groups'),
      body: groupNamesBody,
      answers: {
        201: answerOf('The groups created (names that existed are left out)', { groups: z.array(groupView) }, groupsXml),
        304: { description: 'Every name exists already: nothing created (empty body)' },
      },
      errors: [400, 404],
    }),
    write('put', '/groups/:groupId', [{ json: 'groupUpdate', xml: 'groupUpdateXml' }], ({ send }) => updateGroup(send), {
      summary: saying('Update a group: rename it, replace its forms, devices or tags'),
      description: 'Default cannot be renamed; forms dropped from a group go back to Default.',
      body: groupPatchBody,
      answers: { 200: answerOf('The group as it now is', { group: groupView }, '`<group><id/><name/><form_ids/><device_ids/><tags/></group>`') },
      errors: [400, 404, 409],
    }),
    deletion('/groups/:groupId', saying('Delete a group (its forms go to Default; Default cannot be deleted)'), ({ send }) => deleteGroup(send), {
      openapi: { errors: [400, 404] },
      hostile: [{}],
    }),
  ];
}

const firstGenerationTag = 'Organization (first generation)';
const secondGenerationTag = 'Devices and groups (second generation)';

/** The groups of a generation, under `mount`, in that generation's tag. */
const groupsArea = (name: string, mount: string, tag: string, routes: RouteSpec[]): RouteArea => declareArea({ name, mount, tag, routes });

/** `/organizations/<org>/groups…`: authenticated and scoped to the organization by the mount. */
export const groupsFirstGeneration = groupsArea('groups', '/organizations/:orgId', firstGenerationTag, [
  read('/groups', 'List groups', groupsAnswer, ({ send }) => listGroups(send), {
    openapi: { description: 'The first generation\'s list: every group of the organization, unpaged.' },
    hostile: [{ suffix: '.xml' }],
  }),
  ...groupWrites(''),
]);

/**
 * Groups v2: the list at /api/v2/organizations/<org>/groups; create, update and delete at
 * /api/organizations/<org>/groups…, as group.md documents them.
 */
export const groupsSecondGeneration = groupsArea(
  'groups-v2',
  '/api/organizations/:orgId',
  secondGenerationTag,
  groupWrites('').map((route) => ({ ...route, hostile: route.hostile?.map((hostile) => ({ ...hostile, suffix: '.json' as const })) })),
);

/** The list under /api/v2, and the writes too, as pydevice 0.3.3 writes them (with no suffix). */
export const groupsSecondGenerationV2 = groupsArea('groups-v2', '/api/v2/organizations/:orgId', secondGenerationTag, [
  read('/groups', 'List groups', groupsAnswer, ({ send }) => listGroupsV2(send), {
    openapi: {
      description: "Second generation: the first generation's groups, one record on both. `filter`, `tags[]`, `items` and `page` as group.md documents them.",
      query: {
        filter: { schema: fieldOf(listGroupsPayload, 'filter'), description: 'Part of the name, any case (filter=Def finds Default)' },
        'tags[]': { schema: fieldOf(listGroupsPayload, 'tags'), description: 'Groups having any of these tags (tags[]=health&tags[]=food); `tags=health` once works too' },
        page: { schema: fieldOf(listGroupsPayload, 'page'), description: 'The page, from 1 (every group when neither `page` nor `items` is given)' },
        items: { schema: fieldOf(listGroupsPayload, 'items'), description: 'Groups per page (100 when only `page` is given)' },
      },
      errors: [400, 404],
    },
    hostile: [{ suffix: '.xml' }, { suffix: '.json', query: 'filter=Def&tags[]=health&tags[]=food&page=1' }],
  }),
  ...groupWrites('under /api/v2 too, as pydevice 0.3.3 calls it'),
]);
