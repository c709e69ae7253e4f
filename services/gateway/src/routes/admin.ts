import { Router } from 'express';
import { directoryCommands } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { jsonBody } from '../http/request-body';
import type { RouteDeps } from './route-deps';

/** Administration, behind the admin token: organizations and their API tokens. */
export function adminRoutes({ send }: RouteDeps): Router {
  const router = Router();

  router.post('/organizations', async (req, res) => {
    const { name } = (jsonBody(req) ?? {}) as { name?: unknown };
    res.status(201).json(await send(req, directoryCommands.createOrganization, { name }));
  });

  router.use('/organizations/:orgId', (req, _res, next) => {
    req.context.orgId = pathId(req.params['orgId'], 'Organization');
    next();
  });

  router.get('/organizations/:orgId/tokens', async (req, res) => {
    res.json({ tokens: await send(req, directoryCommands.listApiTokens, {}) });
  });

  router.post('/organizations/:orgId/tokens', async (req, res) => {
    const body = req.body?.length ? ((jsonBody(req) ?? {}) as { label?: unknown }) : {};
    res.status(201).json(await send(req, directoryCommands.issueApiToken, { label: body.label }));
  });

  router.delete('/organizations/:orgId/tokens/:tokenId', async (req, res) => {
    const tokenId = pathId(req.params['tokenId'], 'Token');
    await send(req, directoryCommands.revokeApiToken, { tokenId });
    res.status(200).end();
  });

  return router;
}
