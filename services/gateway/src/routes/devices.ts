import { Router, type Request, type Response } from 'express';
import { directoryCommands, type DeviceView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { pathId } from '../http/path-params';
import { readBody } from '../http/request-body';
import { responseFormat } from '../http/response-format';
import { renderDevicesXml, renderDeviceXml } from '../render/devices-xml';
import { elementText, rootElement } from '../xml/parse-xml';
import type { RouteDeps } from './route-deps';

type DevicePatch = { owner?: string; description?: string; groups?: string[] };

/** `"Default,Field"` → ["Default", "Field"]; "" → no groups. */
function groupNames(value: unknown): string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  if (typeof value !== 'string') throw new AppError('invalid', 'groups: must be comma-separated group names');
  return value.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new AppError('invalid', `${field}: must be a string`);
  return value;
}

/** XML `<device><owner/><description/><groups>A,B</groups></device>` or JSON `{"device": {…}}`. */
function devicePatchFromBody(req: Request): DevicePatch {
  const body = readBody(req);
  if (body.kind === 'json') {
    const device = (body.value as { device?: unknown } | null)?.device;
    if (typeof device !== 'object' || device === null || Array.isArray(device)) {
      throw new AppError('invalid', 'Expected a JSON object {"device": {"owner", "description", "groups"}}');
    }
    const { owner, description, groups } = device as Record<string, unknown>;
    return {
      owner: optionalString(owner, 'owner'),
      description: optionalString(description, 'description'),
      groups: groups === undefined ? undefined : groupNames(groups),
    };
  }
  if (body.kind === 'xml') {
    const device = rootElement(body.value, 'device');
    const text = (field: string) => (device[field] === undefined ? undefined : elementText(device[field], field));
    const groups = text('groups');
    return { owner: text('owner'), description: text('description'), groups: groups === undefined ? undefined : groupNames(groups) };
  }
  throw new AppError('invalid', 'Send XML <device> or JSON {"device": {…}}');
}

function sendDevice(req: Request, res: Response, device: DeviceView, fallback: 'xml' | 'json'): void {
  if (responseFormat(req, fallback) === 'xml') res.type('application/xml').send(renderDeviceXml(device));
  else res.json({ device });
}

/** Device enquiry (spec 4.3) and the devices API as observed. Mounted under /organizations/:orgId. */
export function deviceRoutes({ send }: RouteDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/devices{.:format}', async (req, res) => {
    const devices = await send<DeviceView[]>(req, directoryCommands.listDevices, { approvedOnly: true });
    if (responseFormat(req, 'xml') === 'xml') res.type('application/xml').send(renderDevicesXml(devices));
    else res.json({ devices });
  });

  router.get('/devices/:deviceId{.:format}', async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    sendDevice(req, res, await send<DeviceView>(req, directoryCommands.getDevice, { deviceId }), 'xml');
  });

  router.put('/devices/:deviceId{.:format}', async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    const patch = devicePatchFromBody(req);
    const device = await send<DeviceView>(req, directoryCommands.updateDevice, { deviceId, ...patch });
    res.status(202); // as the real product answers
    sendDevice(req, res, device, 'xml');
  });

  router.delete('/devices/:deviceId{.:format}', async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    await send(req, directoryCommands.deleteDevice, { deviceId });
    res.status(200).end();
  });

  router.post('/devices/:deviceId/approve{.:format}', async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    sendDevice(req, res, await send<DeviceView>(req, directoryCommands.approveDevice, { deviceId }), 'json');
  });

  return router;
}
