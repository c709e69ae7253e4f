import type { Request, RequestHandler } from 'express';
import { resourceCommands, type ResourceListItemView, type ResourceView } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import { renderResourcesXml, renderResourceXml, type ResourceWithStatusView } from '../render/resources-xml';
import type { SendCommand } from '../http/send-command';
import { resourceWrites } from './resources';

/**
 * A stored resource is ready: the resources service checks a file and makes its summary
 * before it answers the create or update, so nothing is ever still processing.
 */
const readyStatus = 'Ready';

/** A `.json`/`.xml` suffix (any other is 404), for answers without a body too. */
const formatOf = (req: Request) => responseFormat(req, 'json');

/*
 * Resources v3 (observed-behaviour, "Later generations of the other APIs"): list and describe
 * in JSON or XML; create and update take the first generation's bodies and answer 202 with an
 * empty body; delete answers 202. The same commands as the first generation's paths, so a
 * resource written on either is the one record on both. Download stays at
 * /api/resources/<id>. route-table/resources.ts mounts them under /api, before the global body parser.
 */

export const createResourceV3 = (send: SendCommand, maxFileBytes: number): RequestHandler => async (req, res) => {
  await resourceWrites({ send, maxFileBytes }).create(req);
  res.status(202).end();
};

export const updateResourceV3 = (send: SendCommand, maxFileBytes: number): RequestHandler => async (req, res) => {
  await resourceWrites({ send, maxFileBytes }).update(req);
  res.status(202).end();
};

export const listResourcesV3 = (send: SendCommand): RequestHandler => async (req, res) => {
  const format = formatOf(req);
  const resources = await send<ResourceListItemView[]>(req, resourceCommands.listResources, {});
  if (format === 'xml') res.type('application/xml').send(renderResourcesXml(resources));
  else res.json({ resources });
};

export const describeResourceV3 = (send: SendCommand): RequestHandler => async (req, res) => {
  const format = formatOf(req);
  const resourceId = pathId(req.params['resourceId'], 'Resource');
  const described = await send<ResourceView>(req, resourceCommands.describeResource, { resourceId });
  const resource: ResourceWithStatusView = { ...described, status: readyStatus };
  if (format === 'xml') res.type('application/xml').send(renderResourceXml(resource));
  else res.json({ resource });
};

export const deleteResourceV3 = (send: SendCommand): RequestHandler => async (req, res) => {
  formatOf(req);
  const resourceId = pathId(req.params['resourceId'], 'Resource');
  await send(req, resourceCommands.deleteResource, { resourceId });
  res.status(202).end();
};
