import type { NextFunction, Request, Response } from 'express';
import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, type AuthenticatedDevice } from '@formcast/contracts';
import { AppError, hashSecret, secretsEqual } from '@formcast/platform';
import type { TokenCache } from './token-cache';

export const basicRealm = 'Formcast API';

/** The API token is the Basic user name; the password is ignored (clients send `x`). */
function basicUserName(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon === -1 ? decoded : decoded.slice(0, colon);
  return user.length > 0 && user.length <= 512 ? user : undefined;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** Organization API token (HTTP Basic) → `req.context.orgId`; else 401 with a Basic challenge. */
export function requireApiToken(bus: Bus, timeoutMs: number, cache: TokenCache) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = basicUserName(req.get('authorization'));
    if (!token) {
      res.setHeader('WWW-Authenticate', `Basic realm="${basicRealm}"`);
      throw new AppError('unauthorized', 'Authentication required: HTTP Basic with the API token as user name');
    }
    const tokenHash = hashSecret(token);
    const cached = cache.get(tokenHash);
    if (cached !== undefined) {
      req.context.orgId = cached;
      next();
      return;
    }
    try {
      const { orgId } = await bus.request<{ orgId: number }>(
        createEnvelope(directoryCommands.authenticateToken, { tokenHash }, { requestId: req.context.requestId }),
        { timeoutMs },
      );
      cache.set(tokenHash, orgId);
      req.context.orgId = orgId;
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') {
        res.setHeader('WWW-Authenticate', `Basic realm="${basicRealm}"`);
      }
      throw error;
    }
    next();
  };
}

/** `Authorization: Bearer <ADMIN_TOKEN>`. */
export function requireAdminToken(adminToken: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = bearerToken(req.get('authorization'));
    if (!token || !secretsEqual(token, adminToken)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="Formcast admin"');
      throw new AppError('unauthorized', 'Admin token required (Authorization: Bearer <ADMIN_TOKEN>)');
    }
    next();
  };
}

/** A device's own secret (`Authorization: Bearer`) → `req.context.orgId` and `deviceId`; else 401. */
export function requireDeviceSecret(bus: Bus, timeoutMs: number) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const secret = bearerToken(req.get('authorization'));
    if (!secret) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="Formcast devices"');
      throw new AppError('unauthorized', 'Device authentication required: Authorization: Bearer <device secret>');
    }
    try {
      const device = await bus.request<AuthenticatedDevice>(
        createEnvelope(directoryCommands.authenticateDevice, { secretHash: hashSecret(secret) }, { requestId: req.context.requestId }),
        { timeoutMs },
      );
      req.context.orgId = device.orgId;
      req.context.deviceId = device.deviceId;
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') {
        res.setHeader('WWW-Authenticate', 'Bearer realm="Formcast devices"');
      }
      throw error;
    }
    next();
  };
}
