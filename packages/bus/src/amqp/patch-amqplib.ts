import type { Logger } from '@formcast/platform';
import type { ChannelModel } from 'amqplib';
import { applyPatch, type AmqplibPatch, type PatchResult } from './amqplib-patch';
import { coalesceWrites } from './coalesce-writes';
import { contentAssembly } from './content-assembly';
import { contentFramesInPlace } from './content-frames-in-place';

export const amqplibPatches: AmqplibPatch[] = [coalesceWrites, contentAssembly, contentFramesInPlace];

/**
 * Puts every patch of amqplib's internals on the connection of `model`, and warns about each
 * one that could not be: amqplib changed, and what the patch saved (CPU, memory) is spent
 * again. packages/bus/README.md, "Upgrading amqplib", says what each one relies on.
 */
export function patchAmqplib(model: ChannelModel, logger: Logger): PatchResult[] {
  const results = amqplibPatches.map((patch) => applyPatch(patch, model));
  for (const { patch, applied, reason } of results) {
    if (!applied) {
      logger.warn({ patch, reason }, `amqplib patch ${patch} did not apply (${reason}): see "Upgrading amqplib" in packages/bus/README.md`);
    }
  }
  return results;
}
