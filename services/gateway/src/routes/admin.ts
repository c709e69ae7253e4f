import { Router } from 'express';
import { directoryCommands, type OrganizationView } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { jsonBody } from '../http/request-body';
import { deadLetterRoutes, type DeadLetterAdmin } from './admin-dead-letters';
import type { RouteDeps } from './route-deps';

export interface AdminRouteDeps extends RouteDeps {
  deadLetters: DeadLetterAdmin;
}

/** Administration, behind the admin token: organizations, their API tokens and enrollment codes; dead letters. */
export function adminRoutes({ send, deadLetters }: AdminRouteDeps): Router {
  const router = Router();

  router.get('/organizations', async (req, res) => {
    res.json({ organizations: await send<OrganizationView[]>(req, directoryCommands.listOrganizations, {}) });
  });

  router.post('/organizations', async (req, res) => {
    const { name } = (jsonBody(req) ?? {}) as { name?: unknown };
    res.status(201).json(await send(req, directoryCommands.createOrganization, { name }));
  });

  router.use('/organizations/:orgId', (req, _res, next) => {
    req.context.orgId = pathId(req.params['orgId'], 'Organization');
    next();
  });

  // A new enrollment code, shown once in the answer; the one before stops enrolling at once.
  router.post('/organizations/:orgId/enrollment_code', async (req, res) => {
    res.status(201).json(await send(req, directoryCommands.rotateEnrollmentCode, {}));
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

  router.use(deadLetterRoutes(deadLetters));
  return router;
}
