import type { CommandHandler } from '@formcast/bus';
import {
  createDispatchesPayload,
  createOneshotPayload,
  errorStatus,
  type BulkDispatchResult,
  type CreateOneshotInput,
  type Envelope,
} from '@formcast/contracts';
import { AppError, isAppError, parsePayload, requireOrgId } from '@formcast/platform';
import type { DirectoryLookup } from '../directory-cache/directory-lookup';
import { createDispatch } from './create-oneshot';
import type { PushDeps } from './deps';

/** An item's fields as the API spells them: a create's, with `device` (its identifier) for the path's device. */
const itemFields = ['device', ...Object.keys(createOneshotPayload.shape).filter((key) => key !== 'deviceRef' && key !== 'fromXml')];
const knownItemFields = new Set(itemFields);

/** Directory lookups in flight at once while warming the cache: enough to hide the round trips, few enough not to flood the directory. */
const warmingConcurrency = 32;

/** One item as the create of one dispatch takes it, or the 400 it would get alone. An unknown field is refused naming it, as on the single create. */
function readItem(item: Record<string, unknown>, fromXml: boolean): CreateOneshotInput {
  const unknown = Object.keys(item).filter((key) => !knownItemFields.has(key));
  if (unknown.length > 0) throw new AppError('invalid', `${unknown.join(', ')}: unknown field; the fields are ${itemFields.join(', ')}`);
  const { device, ...fields } = item;
  if (typeof device !== 'string' || device.length === 0) throw new AppError('invalid', "device: is required: the device's identifier");
  return parsePayload(createOneshotPayload, { ...fields, deviceRef: device, fromXml });
}

/** A failure the item is not to blame for: the bus or a dependency (5xx). */
const isTransient = (error: unknown) => isAppError(error) && errorStatus[error.code] >= 500;

/**
 * Asks the directory once for each distinct device and template the items name, a few at a
 * time, so the creates find them in its cache: 1,000 items to one device cost one lookup,
 * not 1,000, and the creates reach the store in one turn (one grouped transaction on
 * SQLite). What does not exist is left for each item to find out (its own error); a
 * directory that does not answer fails the whole command here, before anything is written.
 */
async function warmDirectory(directory: DirectoryLookup, command: Envelope, inputs: CreateOneshotInput[]): Promise<void> {
  const orgId = requireOrgId(command);
  const lookups: Array<() => Promise<unknown>> = [
    ...[...new Set(inputs.map((input) => input.deviceRef))].map((ref) => () => directory.device(orgId, ref, command.requestId)),
    ...[...new Set(inputs.map((input) => input.form_namespace))].map((namespace) => () => directory.form(orgId, namespace, command.requestId)),
  ];
  let next = 0;
  const worker = async () => {
    while (next < lookups.length) {
      const lookup = lookups[next++]!;
      try {
        await lookup();
      } catch (error) {
        if (!isAppError(error) || isTransient(error)) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(warmingConcurrency, lookups.length) }, worker));
}

function resultOf(outcome: PromiseSettledResult<{ id: number; namespace: string; name: string }>): BulkDispatchResult {
  if (outcome.status === 'fulfilled') return { status: 202, ...outcome.value };
  const error: unknown = outcome.reason;
  // A bug is not an item's outcome: the command fails, and the bus logs it with its stack.
  if (!isAppError(error)) throw error;
  return { status: errorStatus[error.code], error: { code: error.code, message: error.message } };
}

/**
 * `POST /api/v3/dispatches/bulk`: up to 1,000 dispatches in one command. Each item is
 * created as a single create would be (`createDispatch`), atomically and alone, and
 * answered in order: 202 with its id, or the status and error it would get alone. Each
 * item is remembered under `<command id>:<index>`, so a redelivered (or replayed) command
 * creates none twice. An item the directory or the store could not serve (503, 504) is
 * answered so; the others stand.
 */
export const createDispatches =
  (deps: PushDeps): CommandHandler =>
  async (command): Promise<BulkDispatchResult[]> => {
    requireOrgId(command);
    const { dispatches, fromXml } = parsePayload(createDispatchesPayload, command.payload);
    const items = dispatches.map((item): { input: CreateOneshotInput } | { error: unknown } => {
      try {
        return { input: readItem(item, fromXml) };
      } catch (error) {
        return { error };
      }
    });
    await warmDirectory(
      deps.directory,
      command,
      items.flatMap((item) => ('input' in item ? [item.input] : [])),
    );
    const outcomes = await Promise.allSettled(
      items.map((item, index) => ('input' in item ? createDispatch(deps, command, item.input, `${command.id}:${index}`) : Promise.reject(item.error))),
    );
    return outcomes.map(resultOf);
  };
