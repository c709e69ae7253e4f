import { z } from 'zod';
import { deviceSideSubmitPayload, enrollDevicePayload, reportDeviceVersionsPayload, setDevicePushTokenPayload, submitFormPayload } from '@formcast/contracts';
import { bodyOf, schemaOf } from '../openapi/json-schema';
import { deviceOneshotView, deviceVersionsView, enrolledDeviceView, formSubmissionView, oneshotSubmissionView } from '../openapi/views';
import { listOwnOneshots, reportVersions, setPushToken, showOwnOneshot, submitOwnForm, submitOwnOneshot } from '../routes/device-side';
import { enrollDevice } from '../routes/enrollment';
import { declareArea, type RouteSpec } from './declare';
import { pathIds } from './path-ids';

const tag = 'Device side';

/** A device joins an organization with its enrollment code; no API token involved. */
export const enrollment = declareArea({
  name: 'device-side',
  mount: '',
  auth: 'none',
  tag,
  suffixes: 'none',
  routes: [
    {
      method: 'post',
      path: '/devices/enroll',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Enroll a device with the organization\'s enrollment code',
        description:
          'The device is pending until an integrator approves it, and joins Default. `identifier` begins with a platform word and an underscore (`Android_…`, `iPhone_…`), then letters, digits, `.`, `_`, `:` or `-`.',
        body: { json: bodyOf(enrollDevicePayload, []) },
        answers: { 201: { description: 'The device and its secret (shown this once)', json: enrolledDeviceView } },
        errors: [400, 403, 409],
      },
      hostile: [{ json: 'enroll' }],
      handler: ({ send }) => enrollDevice(send),
    },
  ],
});

const reportVersionsRoute = (method: 'put' | 'patch', summary: string): RouteSpec => ({
  method,
  path: '/',
  body: 'BODY_LIMIT_BYTES',
  openapi: {
    summary,
    body: { json: bodyOf(reportDeviceVersionsPayload, ['deviceId']) },
    answers: { 200: { description: 'The device as it now reports itself', json: z.strictObject({ device: deviceVersionsView }) } },
    errors: [400, 403],
  },
  hostile: [{ json: 'deviceVersions' }],
  handler: ({ send }) => reportVersions(send),
});

/**
 * What a device does with its own secret (Bearer; create-app.ts mounts them behind it):
 * fetch its oneshots, submit one or any form of its groups, update its push token, report
 * its OS and app versions.
 */
export const deviceSide = declareArea({
  name: 'device-side',
  mount: '/device',
  auth: 'deviceSecret',
  tag,
  suffixes: 'none',
  pathIdOf: { oneshotId: pathIds.ownOneshot },
  routes: [
    {
      method: 'get',
      path: '/oneshots',
      openapi: {
        summary: 'The device\'s own outstanding oneshots',
        answers: { 200: { description: 'Each with its pre-filled payload', json: z.strictObject({ oneshots: z.array(deviceOneshotView) }) } },
        errors: [403],
      },
      handler: ({ send }) => listOwnOneshots(send),
    },
    {
      method: 'get',
      path: '/oneshots/:oneshotId',
      openapi: {
        summary: 'One of the device\'s outstanding oneshots',
        answers: { 200: { description: 'The oneshot', json: z.strictObject({ oneshot: deviceOneshotView }) } },
        errors: [403, 404],
      },
      handler: ({ send }) => showOwnOneshot(send),
    },
    {
      method: 'post',
      path: '/oneshots/:oneshotId/submission',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Complete a oneshot with the user\'s answers',
        body: { json: { type: 'object', properties: { answers: { ...schemaOf(deviceSideSubmitPayload.shape.answers, 'input'), description: 'question → answer, checked against the form' } }, required: ['answers'] } },
        answers: { 201: { description: 'The submission', json: z.strictObject({ submission: oneshotSubmissionView }) } },
        errors: [400, 403, 404, 409],
      },
      hostile: [{ json: 'deviceSubmission' }],
      handler: ({ send }) => submitOwnOneshot(send),
    },
    {
      method: 'post',
      path: '/forms/:formId/submissions',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Submit any form of the device\'s groups (naming an outstanding oneshot completes it)',
        description: 'The same `submission_identifier` again answers the submission it made the first time.',
        body: { json: bodyOf(submitFormPayload, ['deviceRef', 'formId', 'form_namespace', 'fromXml']) },
        answers: { 201: { description: 'The submission', json: z.strictObject({ submission: formSubmissionView }) } },
        errors: [400, 403, 404, 409],
      },
      hostile: [{ path: '/device/forms/:template/submissions', json: 'formSubmission' }],
      handler: ({ send }) => submitOwnForm(send),
    },
    reportVersionsRoute('put', 'Report the device\'s OS and app versions (only those given change)'),
    reportVersionsRoute('patch', 'Report the device\'s versions (PATCH: the same as PUT)'),
    {
      method: 'put',
      path: '/push_token',
      body: 'BODY_LIMIT_BYTES',
      openapi: {
        summary: 'Set (or clear, with null) the device\'s FCM registration token',
        body: { json: { type: 'object', properties: { push_token: schemaOf(setDevicePushTokenPayload.shape.pushToken, 'input') }, required: ['push_token'] } },
        answers: { 200: { description: 'Whether a token is now set', json: z.strictObject({ push_token_set: z.boolean() }) } },
        errors: [400, 403],
      },
      hostile: [{ json: 'pushToken' }],
      handler: ({ send }) => setPushToken(send),
    },
  ],
});
