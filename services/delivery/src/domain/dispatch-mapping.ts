import type { DispatchTransportParameters, SubmissionReceivedPayload } from '@formcast/contracts';
import type { createOneshotPayload } from '@formcast/contracts';
import type { z } from 'zod';

export type CreateOneshotInput = z.input<typeof createOneshotPayload>;

/**
 * The push create command a `dispatch_transport` destination sends: the template
 * `form_namespace` to the device that submitted, each target question of `field_map`
 * pre-filled with the submitted answer of its source question (as stored: text, a
 * subform's object, a group's repetitions). Source questions left unanswered are left out;
 * push checks the values against the target template, as for any push.
 */
export function dispatchOneshot(submission: SubmissionReceivedPayload, parameters: DispatchTransportParameters): CreateOneshotInput {
  const payload: Record<string, unknown> = {};
  for (const [target, source] of Object.entries(parameters.field_map)) {
    if (Object.hasOwn(submission.answers, source) && submission.answers[source] !== undefined) payload[target] = submission.answers[source];
  }
  return { deviceRef: submission.deviceIdentifier, form_namespace: parameters.form_namespace, payload };
}
