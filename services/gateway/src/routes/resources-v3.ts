import { Router, type Request } from 'express';
import { resourceCommands, type ResourceListItemView, type ResourceView } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { responseFormat } from '../http/response-format';
import { renderResourcesXml, renderResourceXml, type ResourceWithStatusView } from '../render/resources-xml';
import { readResourceBody, resourceWrites, type ResourceRouteDeps } from './resources';

/**
 * A stored resource is ready: the resources service checks a file and makes its summary
 * before it answers the create or update, so nothing is ever still processing.
 */
const readyStatus = 'Ready';

/** A `.json`/`.xml` suffix (any other is 404), for answers without a body too. */
const formatOf = (req: Request) => responseFormat(req, 'json');

/**
 * Resources v3 (observed-behaviour, "Later generations of the other APIs"): list and describe
 * in JSON or XML; create and update take the first generation's bodies and answer 202 with an
 * empty body; delete answers 202. The same commands as the first generation's paths, so a
 * resource written on either is the one record on both. Download stays at
 * /api/resources/<id>. Mounted under /api, before the global body parser.
 */
export function resourceV3Routes({ send, authenticate, maxFileBytes }: ResourceRouteDeps): Router {
  const router = Router();
  const writes = resourceWrites({ send, maxFileBytes });

  // Streamed bodies, as on the first generation's paths: before the catch-all reader below.
  router.post('/v3/resources{.json}', authenticate, async (req, res) => {
    await writes.create(req);
    res.status(202).end();
  });

  router.put('/v3/resources/:resourceId{.json}', authenticate, async (req, res) => {
    await writes.update(req);
    res.status(202).end();
  });

  router.all(['/v3/resources{.:format}', '/v3/resources/*rest'], authenticate, readResourceBody(maxFileBytes));

  router.get('/v3/resources{.:format}', async (req, res) => {
    const format = formatOf(req);
    const resources = await send<ResourceListItemView[]>(req, resourceCommands.listResources, {});
    if (format === 'xml') res.type('application/xml').send(renderResourcesXml(resources));
    else res.json({ resources });
  });

  router.get('/v3/resources/:resourceId/describe{.:format}', async (req, res) => {
    const format = formatOf(req);
    const resourceId = pathId(req.params['resourceId'], 'Resource');
    const described = await send<ResourceView>(req, resourceCommands.describeResource, { resourceId });
    const resource: ResourceWithStatusView = { ...described, status: readyStatus };
    if (format === 'xml') res.type('application/xml').send(renderResourceXml(resource));
    else res.json({ resource });
  });

  router.delete('/v3/resources/:resourceId{.:format}', async (req, res) => {
    formatOf(req);
    const resourceId = pathId(req.params['resourceId'], 'Resource');
    await send(req, resourceCommands.deleteResource, { resourceId });
    res.status(202).end();
  });

  return router;
}
