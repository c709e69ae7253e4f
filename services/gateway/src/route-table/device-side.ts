import { z } from 'zod';
import { deviceSideSubmitPayload, enrollDevicePayload, reportDeviceVersionsPayload, setDevicePushTokenPayload, submitFormPayload } from '@formcast/contracts';
import { bodyOf, schemaOf } from '../openapi/json-schema';
import { answerOf } from '../openapi/operation-parts';
import { deviceOneshotView, deviceVersionsView, enrolledDeviceView, formSubmissionView, oneshotSubmissionView } from '../openapi/views';
import { listOwnOneshots, reportVersions, setPushToken, showOwnOneshot, submitOwnForm, submitOwnOneshot } from '../routes/device-side';
import { enrollDevice } from '../routes/enrollment';
import { declareArea, type RouteSpec } from './declare';
import { read, write } from './route-kinds';
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
    write('post', '/devices/enroll', [{ json: 'enroll' }], ({ send }) => enrollDevice(send), {
      summary: 'Enroll a device with the organization\'s enrollment code',
      description:
        'The device is pending until an integrator approves it, and joins Default. `identifier` begins with a platform word and an underscore (`Android_…`, `iPhone_…`), then letters, digits, `.`, `_`, `:` or `-`.',
      body: { json: bodyOf(enrollDevicePayload, []) },
      answers: { 201: { description: 'The device and its secret (shown this once)', json: enrolledDeviceView } },
      errors: [400, 403, 409],
    }),
  ],
});

const reportVersionsRoute = (method: 'put' | 'patch', summary: string): RouteSpec =>
  write(method, '/', [{ json: 'deviceVersions' }], ({ send }) => reportVersions(send), {
    summary,
    body: { json: bodyOf(reportDeviceVersionsPayload, ['deviceId']) },
    answers: { 200: answerOf('The device as it now reports itself', { device: deviceVersionsView }) },
    errors: [400, 403],
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
    read('/oneshots', 'The device\'s own outstanding oneshots', answerOf('Each with its pre-filled payload', { oneshots: z.array(deviceOneshotView) }), ({ send }) => listOwnOneshots(send), {
      openapi: { errors: [403] },
    }),
    read('/oneshots/:oneshotId', 'One of the device\'s outstanding oneshots', answerOf('The oneshot', { oneshot: deviceOneshotView }), ({ send }) => showOwnOneshot(send), {
      openapi: { errors: [403, 404] },
    }),
    write('post', '/oneshots/:oneshotId/submission', [{ json: 'deviceSubmission' }], ({ send }) => submitOwnOneshot(send), {
      summary: 'Complete a oneshot with the user\'s answers',
      body: { json: { type: 'object', properties: { answers: { ...schemaOf(deviceSideSubmitPayload.shape.answers, 'input'), description: 'question → answer, checked against the form' } }, required: ['answers'] } },
      answers: { 201: answerOf('The submission', { submission: oneshotSubmissionView }) },
      errors: [400, 403, 404, 409],
    }),
    write('post', '/forms/:formId/submissions', [{ path: '/device/forms/:template/submissions', json: 'formSubmission' }], ({ send }) => submitOwnForm(send), {
      summary: 'Submit any form of the device\'s groups (naming an outstanding oneshot completes it)',
      description: 'The same `submission_identifier` again answers the submission it made the first time.',
      body: { json: bodyOf(submitFormPayload, ['deviceRef', 'formId', 'form_namespace', 'fromXml']) },
      answers: { 201: answerOf('The submission', { submission: formSubmissionView }) },
      errors: [400, 403, 404, 409],
    }),
    reportVersionsRoute('put', 'Report the device\'s OS and app versions (only those given change)'),
    reportVersionsRoute('patch', 'Report the device\'s versions (PATCH: the same as PUT)'),
    write('put', '/push_token', [{ json: 'pushToken' }], ({ send }) => setPushToken(send), {
      summary: 'Set (or clear, with null) the device\'s FCM registration token',
      body: { json: { type: 'object', properties: { push_token: schemaOf(setDevicePushTokenPayload.shape.pushToken, 'input') }, required: ['push_token'] } },
      answers: { 200: answerOf('Whether a token is now set', { push_token_set: z.boolean() }) },
      errors: [400, 403],
    }),
  ],
});
