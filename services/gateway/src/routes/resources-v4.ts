import type { RequestHandler } from 'express';
import { resourceCommands, type AsyncResourceUpdateView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { SendCommand } from '../http/send-command';
import { resourceWrites } from './resources';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * Resources v4 (resource_v4.md, resource_v4_migration.md): create and update take the v3
 * body with `mime_type` in the file object, and answer 202 with the queued job; the
 * resources service keeps the job and does the work, and the poll shows it. The body is read
 * and checked here as on every generation (400, 413 before anything is queued).
 * route-table/resources.ts mounts them under /api, before the global body parser.
 */

export const createResourceV4 = (send: SendCommand, maxFileBytes: number): RequestHandler => async (req, res) => {
  const { payload, bytes } = await resourceWrites({ send, maxFileBytes, typeKey: 'mime_type' }).createInput(req);
  res.status(202).json(await send<AsyncResourceUpdateView>(req, resourceCommands.queueResourceUpdate, payload, bytes));
};

export const updateResourceV4 = (send: SendCommand, maxFileBytes: number): RequestHandler => async (req, res) => {
  const { payload, bytes } = await resourceWrites({ send, maxFileBytes, typeKey: 'mime_type' }).updateInput(req);
  res.status(202).json(await send<AsyncResourceUpdateView>(req, resourceCommands.queueResourceUpdate, payload, bytes));
};

export const showResourceUpdate = (send: SendCommand): RequestHandler => async (req, res) => {
  const updateId = String(req.params['updateId']);
  if (!uuid.test(updateId)) throw new AppError('not_found', `Async resource update ${updateId.slice(0, 60)} does not exist`);
  res.json(await send<AsyncResourceUpdateView>(req, resourceCommands.getResourceUpdate, { updateId: updateId.toLowerCase() }));
};
