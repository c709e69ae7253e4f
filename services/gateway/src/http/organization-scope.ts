import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@formcast/platform';
import { pathId } from './path-params';

/** `/organizations/<org>/…` answers only for the token's own organization; any other is 404. */
export function requireOwnOrganization(req: Request, _res: Response, next: NextFunction): void {
  const orgId = pathId(req.params['orgId'], 'Organization');
  if (orgId !== req.context.orgId) throw new AppError('not_found', `Organization ${orgId} does not exist`);
  next();
}
