import type { Request, RequestHandler } from 'express';
import { deviceSideOneshotsPageLimit, directoryCommands, pushCommands, type DeviceOneshotView, type DeviceVersionsView } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import { isPlainObject } from '../http/json-object';
import { requestedPage, streamListing } from '../http/paged-listing';
import { pathId } from '../http/path-params';
import { outstandingJsonWriter } from '../render/outstanding-stream';
import { sendPage } from './oneshots';
import { jsonBody } from '../http/request-body';
import type { SendCommand } from '../http/send-command';

/**
 * What a device does with its own secret: fetch its oneshots, submit one or any form of its
 * groups, update its push token, report its OS and app versions.
 */
const deviceId = (req: Request) => req.context.deviceId!;

// `{"oneshots":[…]}`, streamed a page at a time (payloads included: a long list is never held
// whole); `page` / `per_page`: that page alone, in the same shape.

export const listOwnOneshots = (send: SendCommand): RequestHandler => async (req, res) => {
  const writer = outstandingJsonWriter<DeviceOneshotView>('oneshots');
  const list = (window: { afterId?: number; offset?: number; limit: number }) =>
    send<DeviceOneshotView[]>(req, pushCommands.deviceListOneshots, { deviceId: deviceId(req), ...window });
  const asked = requestedPage(req);
  if (asked) return sendPage(req, res, writer, asked, await list({ offset: asked.offset, limit: asked.limit }));
  await streamListing(req, res, writer, deviceSideOneshotsPageLimit, (afterId) => list({ afterId, limit: deviceSideOneshotsPageLimit }));
};

export const showOwnOneshot = (send: SendCommand): RequestHandler => async (req, res) => {
  const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
  res.json({ oneshot: await send(req, pushCommands.deviceGetOneshot, { deviceId: deviceId(req), oneshotId }) });
};

export const submitOwnOneshot = (send: SendCommand): RequestHandler => async (req, res) => {
  const oneshotId = pathId(req.params['oneshotId'], 'Oneshot');
  const body = jsonBody(req);
  if (!isPlainObject(body) || !('answers' in body)) throw new AppError('invalid', 'Expected a JSON object {"answers": {…}}');
  const submission = await send(req, pushCommands.deviceSubmitOneshot, { deviceId: deviceId(req), oneshotId, answers: body['answers'] });
  res.status(201).json({ submission });
};

/** Any form of the device's groups; naming an outstanding oneshot completes it. The same submission_identifier again answers with the submission it made the first time. */
export const submitOwnForm = (send: SendCommand): RequestHandler => async (req, res) => {
  const formId = pathId(req.params['formId'], 'Form');
  const body = jsonBody(req);
  if (!isPlainObject(body) || !('answers' in body)) {
    throw new AppError('invalid', 'Expected a JSON object {"answers": {…}, "submission_identifier", "oneshot_id", "submitted_at"}');
  }
  const { answers, submission_identifier, oneshot_id, submitted_at } = body;
  const payload = { deviceRef: String(deviceId(req)), formId, answers, submission_identifier, oneshot_id, submitted_at };
  res.status(201).json({ submission: await send(req, pushCommands.submitForm, payload) });
};

/** `PUT` or `PATCH /device` with any of os_version, app_identifier, app_version: only those given change. Answers the device's id, identifier and versions as they now are. */
export const reportVersions = (send: SendCommand): RequestHandler => async (req, res) => {
  const body = jsonBody(req);
  if (!isPlainObject(body)) throw new AppError('invalid', 'Expected a JSON object {"os_version", "app_identifier", "app_version"}');
  const { os_version, app_identifier, app_version } = body;
  const payload = { deviceId: deviceId(req), os_version, app_identifier, app_version };
  res.json({ device: await send<DeviceVersionsView>(req, directoryCommands.reportDeviceVersions, payload) });
};

export const setPushToken = (send: SendCommand): RequestHandler => async (req, res) => {
  const body = jsonBody(req);
  const token = isPlainObject(body) ? body['push_token'] : undefined;
  if (token !== null && (typeof token !== 'string' || token.length === 0)) {
    throw new AppError('invalid', 'push_token: must be the FCM registration token (a string), or null');
  }
  await send(req, directoryCommands.setDevicePushToken, { deviceId: deviceId(req), pushToken: token });
  res.status(200).json({ push_token_set: token !== null });
};
