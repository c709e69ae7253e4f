import type { CommandHandler } from '@formcast/bus';
import { createOneshotPayload, pushEvents, type CreatedDispatchAnswer, type CreateOneshotInput, type Envelope, type OneshotCreatedView } from '@formcast/contracts';
import { idempotentInStore, type KeyedAnswer, type KeyRequest } from '@formcast/idempotency';
import { allInOrder, AppError, parsePayload, requireOrgId } from '@formcast/platform';
import { approvedDevice } from '../directory-cache/approved-device';
import { pushTemplate } from '../directory-cache/push-template';
import { dispatchNamespace } from '../domain/dispatch-namespace';
import { oneshotEvent, type OneshotEventFactory } from '../domain/oneshot-events';
import { newOneshot } from '../domain/oneshot-lifecycle';
import { checkPayload } from '../domain/payload-rules';
import type { NewOneshot, Oneshot } from '../domain/records';
import { toCreatedView, toDispatchView } from '../domain/views';
import { tracedStoreWrite } from '../outbox/traced-store-write';
import { nowOf, type PushDeps } from './deps';

/** A dispatch ready to save: the oneshot as the request makes it, and its created event. */
interface PreparedDispatch {
  oneshot: NewOneshot;
  event: OneshotEventFactory;
}

/** The device and template looked up, the payload checked: what the create saves, or the 4xx it refuses with. */
async function prepareDispatch(deps: PushDeps, command: Envelope, input: CreateOneshotInput): Promise<PreparedDispatch> {
  const { directory } = deps;
  const orgId = requireOrgId(command);
  const [device, template] = await allInOrder([
    approvedDevice(directory, command, input.deviceRef),
    pushTemplate(directory, command, input.form_namespace),
  ]);
  const payload = checkPayload(input.payload, template.questions, { lenientRepeats: input.fromXml });
  await checkOutstandingCap(deps, orgId, device.id, device.identifier);
  const oneshot = newOneshot(
    {
      orgId,
      deviceId: device.id,
      deviceIdentifier: device.identifier,
      formId: template.id,
      templateNamespace: template.namespace,
      namespace: dispatchNamespace(template.namespace),
      name: input.form_name ?? template.name,
      description: input.form_description ?? '',
      payload,
      formVersion: template.version,
      scheduledAt: input.scheduled_at ?? null,
      location: input.location ?? null,
      address: input.address ?? null,
      geofenceRadius: input.geofence_radius ?? null,
    },
    nowOf(deps),
  );
  return { oneshot, event: oneshotEvent(pushEvents.oneshotCreated, device.pushToken, command.requestId) };
}

/** The default of PUSH_MAX_OUTSTANDING_PER_DEVICE. */
export const defaultMaxOutstandingPerDevice = 2000;

/**
 * A device's outstanding dispatches are capped, so one organization cannot pile up work (and
 * listings) without end: one more is 422. A count before the write: creates racing at the
 * cap may leave it over by the creates under way, never more.
 */
async function checkOutstandingCap(deps: PushDeps, orgId: number, deviceId: number, identifier: string): Promise<void> {
  const max = deps.maxOutstandingPerDevice ?? defaultMaxOutstandingPerDevice;
  const total = await deps.store.countOutstanding(orgId, deviceId);
  if (total >= max) {
    throw new AppError(
      'unprocessable',
      `Device ${identifier} has ${total} outstanding dispatches, the most one device may have (PUSH_MAX_OUTSTANDING_PER_DEVICE=${max}): revoke some, or wait for it to complete them`,
    );
  }
}

/**
 * The create of one dispatch, as parsed: the createOneshot command's, and each item of a
 * bulk dispatch's. `itemCommandId` is what the store remembers the create under (the
 * command's id, or one per item), so a redelivery creates it once.
 */
export async function createDispatch(
  deps: PushDeps,
  command: Envelope,
  input: CreateOneshotInput,
  itemCommandId: string,
): Promise<OneshotCreatedView> {
  return toCreatedView(await createDispatchRecord(deps, command, input, itemCommandId));
}

async function createDispatchRecord(deps: PushDeps, command: Envelope, input: CreateOneshotInput, itemCommandId: string): Promise<Oneshot> {
  const { oneshot, event } = await prepareDispatch(deps, command, input);
  const created = await tracedStoreWrite('create', (carryTrace) => deps.store.create(oneshot, carryTrace(event), itemCommandId));
  deps.eventsWritten();
  return created;
}

/** What the create answers: the created view, with the dispatch's view when the v2/v3 create asks (as `push.dispatch.get` would show it). */
function createdAnswer(created: Oneshot, input: CreateOneshotInput): CreatedDispatchAnswer {
  return input.answerWithDispatch ? { ...toCreatedView(created), dispatch: toDispatchView(created) } : toCreatedView(created);
}

/** `createDispatch` answering once per Idempotency-Key: the key is recorded with the oneshot, in its transaction. */
async function createDispatchOnce(deps: PushDeps, command: Envelope, input: CreateOneshotInput, key: KeyRequest): Promise<KeyedAnswer> {
  const { oneshot, event } = await prepareDispatch(deps, command, input);
  const outcome = await tracedStoreWrite('create', (carryTrace) => deps.store.createKeyed(oneshot, carryTrace(event), { ...key, answer: toCreatedView }));
  if ('found' in outcome) return outcome;
  deps.eventsWritten();
  // The key keeps the created view alone: a replay answers it, and the gateway reads the dispatch.
  return { value: createdAnswer(outcome.created, input) };
}

/**
 * POST /clients/<device>/oneshots (and the v2/v3 creates): a pre-filled copy of a template,
 * outstanding on one device. With an Idempotency-Key, answered once per key: the key is kept
 * in the push store with the oneshot, in one transaction (see `idempotentInStore`).
 */
export const createOneshot = (deps: PushDeps): CommandHandler =>
  idempotentInStore(deps.store.keys, async (command, key) => {
    requireOrgId(command);
    const input = parsePayload(createOneshotPayload, command.payload);
    if (key) return createDispatchOnce(deps, command, input, key);
    return { value: createdAnswer(await createDispatchRecord(deps, command, input, command.id), input) };
  });
