import { z } from 'zod';
import { createGroupsPayload, listGroupsPayload, updateGroupPayload } from '@formcast/contracts';
import { fieldOf, schemaOf } from '../openapi/json-schema';
import { groupView } from '../openapi/views';
import { createGroups, deleteGroup, listGroups, updateGroup } from '../routes/groups';
import { listGroupsV2 } from '../routes/groups-v2';
import type { RouteDeclaration } from './declaration';
import { declareArea, deletedAnswer, type RouteSpec } from './declare';
import { pathIds } from './path-ids';

/** Groups (spec 4.2, group.md): the first generation's routes and the second's, over the same handlers and commands. */

const groupNamesBody = {
  json: schemaOf(createGroupsPayload.shape.names, 'input'),
  xml: '`<groups><group><name>Field team</name></group>…</groups>`',
  description: 'The names of the groups to create',
};

const { shape: groupPatch } = updateGroupPayload;
const groupPatchBody = {
  json: {
    type: 'object',
    properties: {
      group: {
        type: 'object',
        properties: {
          name: schemaOf(groupPatch.name.unwrap(), 'input'),
          form_ids: { ...schemaOf(groupPatch.formIds.unwrap(), 'input'), description: 'replaces the group\'s forms (those dropped go back to Default)' },
          device_ids: { ...schemaOf(groupPatch.deviceIds.unwrap(), 'input'), description: 'replaces the group\'s devices' },
          tags: { ...schemaOf(groupPatch.tags.unwrap(), 'input'), description: 'replaces the group\'s tags (group.md: the v2 list shows and filters them)' },
        },
      },
    },
    required: ['group'],
  },
  xml: '`<group><name/><form_ids><form_id>1</form_id>…</form_ids><device_ids><device_id>1</device_id>…</device_ids><tags><name>food</name>…</tags></group>`',
};

const groupsXml = '`<groups type="array"><group><id/><name/><form_ids><form_id/>…</form_ids><device_ids><device_id/>…</device_ids><tags><name/>…</tags></group>…</groups>`';

/** The groups operations, shared by the first and second generations' routes (route-table/groups.ts). */
const groupOperations = {
  list: (description: string): RouteDeclaration['openapi'] => ({
    summary: 'List groups',
    description,
    answers: { 200: { description: 'The organization\'s groups (XML unless asked for JSON)', json: z.strictObject({ groups: z.array(groupView) }), xml: groupsXml } },
  }),
  create: (): RouteDeclaration['openapi'] => ({
    summary: 'Create groups',
    body: groupNamesBody,
    answers: {
      201: { description: 'The groups created (names that existed are left out)', json: z.strictObject({ groups: z.array(groupView) }), xml: groupsXml },
      304: { description: 'Every name exists already: nothing created (empty body)' },
    },
    errors: [400, 404],
  }),
  update: (): RouteDeclaration['openapi'] => ({
    summary: 'Update a group: rename it, replace its forms, devices or tags',
    description: 'Default cannot be renamed; forms dropped from a group go back to Default.',
    body: groupPatchBody,
    answers: { 200: { description: 'The group as it now is', json: z.strictObject({ group: groupView }), xml: '`<group><id/><name/><form_ids/><device_ids/><tags/></group>`' } },
    errors: [400, 404, 409],
  }),
  delete: (): RouteDeclaration['openapi'] => ({
    summary: 'Delete a group (its forms go to Default; Default cannot be deleted)',
    answers: deletedAnswer,
    errors: [400, 404],
  }),
};

/** The routes of a group, wherever they are mounted; `where` says so in the summary. */
function groupRoutes(where: string): RouteSpec[] {
  const saying = (summary: string) => (where ? `${summary} (${where})` : summary);
  return [
    {
      method: 'post',
      path: '/groups',
      body: 'BODY_LIMIT_BYTES',
      openapi: { ...groupOperations.create(), summary: saying(groupOperations.create().summary) },
      hostile: [{ json: 'groupNames', xml: 'groupNamesXml' }],
      handler: ({ send }) => createGroups(send),
    },
    {
      method: 'put',
      path: '/groups/:groupId',
      body: 'BODY_LIMIT_BYTES',
      openapi: { ...groupOperations.update(), summary: saying(groupOperations.update().summary) },
      hostile: [{ json: 'groupUpdate', xml: 'groupUpdateXml' }],
      handler: ({ send }) => updateGroup(send),
    },
    {
      method: 'delete',
      path: '/groups/:groupId',
      openapi: { ...groupOperations.delete(), summary: saying(groupOperations.delete().summary) },
      hostile: [{}],
      handler: ({ send }) => deleteGroup(send),
    },
  ];
}

const firstGenerationTag = 'Organization (first generation)';
const secondGenerationTag = 'Devices and groups (second generation)';

/** `/organizations/<org>/groups…`: authenticated and scoped to the organization by the mount. */
export const groupsFirstGeneration = declareArea({
  name: 'groups',
  mount: '/organizations/:orgId',
  tag: firstGenerationTag,
  routes: [
    {
      method: 'get',
      path: '/groups',
      openapi: groupOperations.list('The first generation\'s list: every group of the organization, unpaged.'),
      hostile: [{ suffix: '.xml' }],
      handler: ({ send }) => listGroups(send),
    },
    ...groupRoutes(''),
  ],
});

/**
 * Groups v2: the list at /api/v2/organizations/<org>/groups; create, update and delete at
 * /api/organizations/<org>/groups…, as group.md documents them.
 */
export const groupsSecondGeneration = declareArea({
  name: 'groups-v2',
  mount: '/api/organizations/:orgId',
  tag: secondGenerationTag,
  routes: groupRoutes('').map((route) => ({ ...route, hostile: route.hostile?.map((hostile) => ({ ...hostile, suffix: '.json' as const })) })),
});

/** The list under /api/v2, and the writes too, as pydevice 0.3.3 writes them (with no suffix). */
export const groupsSecondGenerationV2 = declareArea({
  name: 'groups-v2',
  mount: '/api/v2/organizations/:orgId',
  tag: secondGenerationTag,
  routes: [
    {
      method: 'get',
      path: '/groups',
      openapi: {
        ...groupOperations.list("Second generation: the first generation's groups, one record on both. `filter`, `tags[]`, `items` and `page` as group.md documents them."),
        query: {
          filter: { schema: fieldOf(listGroupsPayload, 'filter'), description: 'Part of the name, any case (filter=Def finds Default)' },
          'tags[]': { schema: fieldOf(listGroupsPayload, 'tags'), description: 'Groups having any of these tags (tags[]=health&tags[]=food); `tags=health` once works too' },
          page: { schema: fieldOf(listGroupsPayload, 'page'), description: 'The page, from 1 (every group when neither `page` nor `items` is given)' },
          items: { schema: fieldOf(listGroupsPayload, 'items'), description: 'Groups per page (100 when only `page` is given)' },
        },
        errors: [400, 404],
      },
      hostile: [{ suffix: '.xml' }, { suffix: '.json', query: 'filter=Def&tags[]=health&tags[]=food&page=1' }],
      handler: ({ send }) => listGroupsV2(send),
    },
    ...groupRoutes('under /api/v2 too, as pydevice 0.3.3 calls it'),
  ],
});
