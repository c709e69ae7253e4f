import { type Request, type RequestHandler, type Response } from 'express';
import { directoryCommands, type DeviceV2View, type DeviceView, type DeviceViewGeneration } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import { responseFormat, type ResponseFormat } from '../http/response-format';
import type { SendCommand } from '../http/send-command';
import { renderDevicesV2Xml, renderDeviceV2Xml } from '../render/devices-v2-xml';
import { renderDevicesXml, renderDeviceXml } from '../render/devices-xml';
import { devicePatchFromBody } from './device-patch';

/**
 * How a generation answers: the device view the directory is asked for, its XML, and the
 * format when neither the path nor the headers pick one (the first generation's is XML, as
 * the spec shows it; later generations answer JSON).
 */
export interface DeviceGeneration {
  view: DeviceViewGeneration;
  fallback: ResponseFormat;
}

export const firstGeneration: DeviceGeneration = { view: 'v1', fallback: 'xml' };
export const secondGeneration: DeviceGeneration = { view: 'v2', fallback: 'json' };

type AnyDeviceView = DeviceView | DeviceV2View;

function renderOne(generation: DeviceGeneration, device: AnyDeviceView): string {
  return generation.view === 'v2' ? renderDeviceV2Xml(device as DeviceV2View) : renderDeviceXml(device as DeviceView);
}

function renderMany(generation: DeviceGeneration, devices: AnyDeviceView[]): string {
  return generation.view === 'v2' ? renderDevicesV2Xml(devices as DeviceV2View[]) : renderDevicesXml(devices as DeviceView[]);
}

/** `{"device":{…}}` in JSON, or the bare device (`json: 'bare'`: the second generation's show, as v2/devices.md shows it); `<device>` in XML. */
function sendDevice(
  req: Request,
  res: Response,
  generation: DeviceGeneration,
  device: AnyDeviceView,
  { fallback = generation.fallback, json = 'wrapped' }: { fallback?: ResponseFormat; json?: 'bare' | 'wrapped' } = {},
): void {
  if (responseFormat(req, fallback) === 'xml') res.type('application/xml').send(renderOne(generation, device));
  else res.json(json === 'bare' ? device : { device });
}

/**
 * The list: the first generation lists approved devices only (spec 4.3: "connected, approved
 * devices"); the second lists pending ones too, with `pending_approval`, so an integrator
 * finds the devices waiting for its approval.
 */
export function listDevices(send: SendCommand, generation: DeviceGeneration): RequestHandler {
  return async (req, res) => {
    const payload = { approvedOnly: generation.view === 'v1', view: generation.view };
    const devices = await send<AnyDeviceView[]>(req, directoryCommands.listDevices, payload);
    if (responseFormat(req, generation.fallback) === 'xml') res.type('application/xml').send(renderMany(generation, devices));
    else res.json({ devices });
  };
}

/** The first generation's show wraps (`{"device":{…}}`); the second's is the bare device, as v2/devices.md shows it. */
export function showDevice(send: SendCommand, generation: DeviceGeneration): RequestHandler {
  return async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    const device = await send<AnyDeviceView>(req, directoryCommands.getDevice, { deviceId, view: generation.view });
    sendDevice(req, res, generation, device, { json: generation.view === 'v2' ? 'bare' : 'wrapped' });
  };
}

/** 202 with the device, as the real product answers. */
export function updateDevice(send: SendCommand, generation: DeviceGeneration): RequestHandler {
  return async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    const patch = devicePatchFromBody(req);
    const device = await send<AnyDeviceView>(req, directoryCommands.updateDevice, { deviceId, ...patch, view: generation.view });
    res.status(202);
    sendDevice(req, res, generation, device);
  };
}

/** 200 with an empty body, as the real product answers. */
export function deleteDevice(send: SendCommand): RequestHandler {
  return async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    await send(req, directoryCommands.deleteDevice, { deviceId });
    res.status(200).end();
  };
}

/** The first generation's approve answered JSON unless asked otherwise, unlike its reads. */
export function approveDevice(send: SendCommand, generation: DeviceGeneration): RequestHandler {
  return async (req, res) => {
    const deviceId = pathId(req.params['deviceId'], 'Device');
    const device = await send<AnyDeviceView>(req, directoryCommands.approveDevice, { deviceId, view: generation.view });
    sendDevice(req, res, generation, device, { fallback: 'json' });
  };
}
