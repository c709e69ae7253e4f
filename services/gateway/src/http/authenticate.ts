import type { NextFunction, Request, Response } from 'express';
import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, type AuthenticatedDevice } from '@formcast/contracts';
import { AppError, hashSecret, secretsEqual } from '@formcast/platform';
import type { DeviceSecretCache } from './device-secret-cache';
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

/** The last `Authorization` header of a connection and the hash of its API token. */
interface TokenHashMemo {
  header: string;
  tokenHash: string;
}

const tokenHashes = new WeakMap<object, TokenHashMemo>();

/**
 * The SHA-256 of the request's API token, or undefined without one. An integrator sends the
 * same header on every request of a keep-alive connection, so the hash of the connection's
 * last header is kept with the connection (and goes with it): hashing again cost more than
 * the token cache lookup it leads to. Only the hash → organization answer is cached
 * elsewhere (TokenCache), with its TTL and revocations, exactly as before.
 */
function apiTokenHash(req: Request): string | undefined {
  const header = req.headers.authorization;
  const connection = req.socket as object | undefined;
  const memo = connection && tokenHashes.get(connection);
  if (memo !== undefined && memo.header === header) return memo.tokenHash;
  const token = basicUserName(header);
  if (!token) return undefined;
  const tokenHash = hashSecret(token);
  if (connection) tokenHashes.set(connection, { header: header!, tokenHash });
  return tokenHash;
}

function challengeBasic(res: Response): void {
  res.setHeader('WWW-Authenticate', `Basic realm="${basicRealm}"`);
}

/** Organization API token (HTTP Basic) → `req.context.orgId`; else 401 with a Basic challenge. */
export function requireApiToken(bus: Bus, timeoutMs: number, cache: TokenCache) {
  const authenticate = async (req: Request, res: Response, next: NextFunction, tokenHash: string) => {
    try {
      const { orgId } = await bus.request<{ orgId: number }>(
        createEnvelope(directoryCommands.authenticateToken, { tokenHash }, { requestId: req.context.requestId }),
        { timeoutMs },
      );
      cache.set(tokenHash, orgId);
      req.context.orgId = orgId;
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthorized') challengeBasic(res);
      throw error;
    }
    next();
  };
  // Not async: a token in the cache (nearly every request) goes on without a promise.
  return (req: Request, res: Response, next: NextFunction): Promise<void> | void => {
    const tokenHash = apiTokenHash(req);
    if (!tokenHash) {
      challengeBasic(res);
      throw new AppError('unauthorized', 'Authentication required: HTTP Basic with the API token as user name');
    }
    const cached = cache.get(tokenHash);
    if (cached === undefined) return authenticate(req, res, next, tokenHash);
    req.context.orgId = cached;
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

/**
 * A device's own secret (`Authorization: Bearer`) → `req.context.orgId` and `deviceId`; else
 * 401. The directory's answer for a secret is kept a few seconds (DeviceSecretCache).
 */
export function requireDeviceSecret(bus: Bus, timeoutMs: number, cache: DeviceSecretCache) {
  const authenticate = async (req: Request, res: Response, next: NextFunction, secretHash: string) => {
    const mark = cache.mark;
    try {
      const device = await bus.request<AuthenticatedDevice>(
        createEnvelope(directoryCommands.authenticateDevice, { secretHash }, { requestId: req.context.requestId }),
        { timeoutMs },
      );
      cache.set(secretHash, device, mark);
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
  // Not async: a secret in the cache goes on without a promise.
  return (req: Request, res: Response, next: NextFunction): Promise<void> | void => {
    const secret = bearerToken(req.get('authorization'));
    if (!secret) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="Formcast devices"');
      throw new AppError('unauthorized', 'Device authentication required: Authorization: Bearer <device secret>');
    }
    const secretHash = hashSecret(secret);
    const cached = cache.get(secretHash);
    if (cached === undefined) return authenticate(req, res, next, secretHash);
    req.context.orgId = cached.orgId;
    req.context.deviceId = cached.deviceId;
    next();
  };
}
