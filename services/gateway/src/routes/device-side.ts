import { Router, type Request } from 'express';
import { directoryCommands, pushCommands } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { jsonBody } from '../http/request-body';
import type { RouteDeps } from './route-deps';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a device does with its own secret: fetch its oneshots, submit one, update its push token. */
export function deviceSideRoutes({ send }: RouteDeps): Router {
  const router = Router();
  const deviceId = (req: Request) => req.context.deviceId!;

  router.get('/oneshots', async (req, res) => {
    res.json({ oneshots: await send(req, pushCommands.deviceListOneshots, { deviceId: deviceId(req) }) });
  });

  router.get('/oneshots/:oneshotId', async (req, res) => {
    const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
    res.json({ oneshot: await send(req, pushCommands.deviceGetOneshot, { deviceId: deviceId(req), oneshotId }) });
  });

  router.post('/oneshots/:oneshotId/submission', async (req, res) => {
    const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
    const body = jsonBody(req);
    if (!isPlainObject(body) || !('answers' in body)) throw new AppError('invalid', 'Expected a JSON object {"answers": {…}}');
    const submission = await send(req, pushCommands.deviceSubmitOneshot, { deviceId: deviceId(req), oneshotId, answers: body['answers'] });
    res.status(201).json({ submission });
  });

  router.put('/push_token', async (req, res) => {
    const body = jsonBody(req);
    const token = isPlainObject(body) ? body['push_token'] : undefined;
    if (token !== null && (typeof token !== 'string' || token.length === 0)) {
      throw new AppError('invalid', 'push_token: must be the FCM registration token (a string), or null');
    }
    await send(req, directoryCommands.setDevicePushToken, { deviceId: deviceId(req), pushToken: token });
    res.status(200).json({ push_token_set: token !== null });
  });

  return router;
}
