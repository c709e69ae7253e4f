import { z } from 'zod';
import { deviceSideSubmitPayload, enrollDevicePayload, reportDeviceVersionsPayload, setDevicePushTokenPayload, submitFormPayload } from '@formcast/contracts';
import { bodyOf, schemaOf } from './json-schema';
import type { OperationSpec, PathTable } from './operation';
import { deviceOneshotView, deviceVersionsView, enrolledDeviceView, formSubmissionView, oneshotSubmissionView } from './views';

/** What a device does: enroll with the organization's code, then act with its own secret (Bearer). */

const reportVersions: OperationSpec = {
  summary: 'Report the device\'s OS and app versions (only those given change)',
  auth: 'deviceSecret',
  suffixes: 'none',
  body: { json: bodyOf(reportDeviceVersionsPayload, ['deviceId']) },
  answers: { 200: { description: 'The device as it now reports itself', json: z.strictObject({ device: deviceVersionsView }) } },
  errors: [400, 403],
};

export const deviceSidePaths: PathTable = {
  '/devices/enroll': {
    post: {
      summary: 'Enroll a device with the organization\'s enrollment code',
      description:
        'The device is pending until an integrator approves it, and joins Default. `identifier` begins with a platform word and an underscore (`Android_…`, `iPhone_…`), then letters, digits, `.`, `_`, `:` or `-`.',
      auth: 'none',
      suffixes: 'none',
      body: { json: bodyOf(enrollDevicePayload, []) },
      answers: { 201: { description: 'The device and its secret (shown this once)', json: enrolledDeviceView } },
      errors: [400, 403, 409],
    },
  },
  '/device': { put: reportVersions, patch: { ...reportVersions, summary: 'Report the device\'s versions (PATCH: the same as PUT)' } },
  '/device/push_token': {
    put: {
      summary: 'Set (or clear, with null) the device\'s FCM registration token',
      auth: 'deviceSecret',
      suffixes: 'none',
      body: { json: { type: 'object', properties: { push_token: schemaOf(setDevicePushTokenPayload.shape.pushToken, 'input') }, required: ['push_token'] } },
      answers: { 200: { description: 'Whether a token is now set', json: z.strictObject({ push_token_set: z.boolean() }) } },
      errors: [400, 403],
    },
  },
  '/device/oneshots': {
    get: {
      summary: 'The device\'s own outstanding oneshots',
      auth: 'deviceSecret',
      suffixes: 'none',
      answers: { 200: { description: 'Each with its pre-filled payload', json: z.strictObject({ oneshots: z.array(deviceOneshotView) }) } },
      errors: [403],
    },
  },
  '/device/oneshots/{oneshotId}': {
    get: {
      summary: 'One of the device\'s outstanding oneshots',
      auth: 'deviceSecret',
      suffixes: 'none',
      answers: { 200: { description: 'The oneshot', json: z.strictObject({ oneshot: deviceOneshotView }) } },
      errors: [403, 404],
    },
  },
  '/device/oneshots/{oneshotId}/submission': {
    post: {
      summary: 'Complete a oneshot with the user\'s answers',
      auth: 'deviceSecret',
      suffixes: 'none',
      body: { json: { type: 'object', properties: { answers: { ...schemaOf(deviceSideSubmitPayload.shape.answers, 'input'), description: 'question → answer, checked against the form' } }, required: ['answers'] } },
      answers: { 201: { description: 'The submission', json: z.strictObject({ submission: oneshotSubmissionView }) } },
      errors: [400, 403, 404, 409],
    },
  },
  '/device/forms/{formId}/submissions': {
    post: {
      summary: 'Submit any form of the device\'s groups (naming an outstanding oneshot completes it)',
      description: 'The same `submission_identifier` again answers the submission it made the first time.',
      auth: 'deviceSecret',
      suffixes: 'none',
      body: { json: bodyOf(submitFormPayload, ['deviceRef', 'formId', 'form_namespace', 'fromXml']) },
      answers: { 201: { description: 'The submission', json: z.strictObject({ submission: formSubmissionView }) } },
      errors: [400, 403, 404, 409],
    },
  },
};
