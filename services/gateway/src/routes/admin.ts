import { Router, type RequestHandler } from 'express';
import { directoryCommands, type OrganizationView } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { jsonObjectBody } from '../http/json-object';
import type { SendCommand } from '../http/send-command';

/** Administration, behind the admin token: organizations, their API tokens and enrollment codes (route-table/admin.ts mounts them). */

export const listOrganizations = (send: SendCommand): RequestHandler => async (req, res) => {
  res.json({ organizations: await send<OrganizationView[]>(req, directoryCommands.listOrganizations, {}) });
};

export const createOrganization = (send: SendCommand): RequestHandler => async (req, res) => {
  const { name } = jsonObjectBody(req, '{"name": "<the organization\'s name>"}');
  res.status(201).json(await send(req, directoryCommands.createOrganization, { name }));
};

/** `/admin/organizations/<org>/…` acts as that organization: its commands carry its id. */
export function adminOrganizationScope(): Router {
  const router = Router();
  router.use('/organizations/:orgId', (req, _res, next) => {
    req.context.orgId = pathId(req.params['orgId'], 'Organization');
    next();
  });
  return router;
}

/** A new enrollment code, shown once in the answer; the one before stops enrolling at once. */
export const rotateEnrollmentCode = (send: SendCommand): RequestHandler => async (req, res) => {
  res.status(201).json(await send(req, directoryCommands.rotateEnrollmentCode, {}));
};

export const listApiTokens = (send: SendCommand): RequestHandler => async (req, res) => {
  res.json({ tokens: await send(req, directoryCommands.listApiTokens, {}) });
};

export const issueApiToken = (send: SendCommand): RequestHandler => async (req, res) => {
  const body = req.body?.length ? jsonObjectBody(req, '{"label": "<what the token is for>"}, or no body') : {};
  res.status(201).json(await send(req, directoryCommands.issueApiToken, { label: body.label }));
};

export const revokeApiToken = (send: SendCommand): RequestHandler => async (req, res) => {
  const tokenId = pathId(req.params['tokenId'], 'Token');
  await send(req, directoryCommands.revokeApiToken, { tokenId });
  res.status(200).end();
};
