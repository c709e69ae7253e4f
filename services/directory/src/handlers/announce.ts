import { createEnvelope, directoryEvents, type Envelope } from '@formcast/contracts';
import type { DirectoryDeps } from './deps';

/**
 * Tells other services that a device or template changed, after the change is stored.
 * Best effort, by design: these only invalidate caches, which also expire on their own
 * (see docs/architecture.md), so a lost announcement costs staleness, never data.
 */
async function announce(deps: DirectoryDeps, event: Envelope): Promise<void> {
  if (!deps.bus) return;
  try {
    await deps.bus.publish(event);
  } catch (err) {
    deps.logger?.warn({ err, type: event.type }, 'could not announce a directory change');
  }
}

export function announceDeviceChanged(deps: DirectoryDeps, device: { orgId: number; id: number; identifier: string }, requestId?: string) {
  return announce(
    deps,
    createEnvelope(directoryEvents.deviceChanged, { orgId: device.orgId, deviceId: device.id, identifier: device.identifier }, { orgId: device.orgId, requestId }),
  );
}

export function announceFormChanged(deps: DirectoryDeps, form: { orgId: number; id: number; namespace: string }, requestId?: string) {
  return announce(
    deps,
    createEnvelope(directoryEvents.formChanged, { orgId: form.orgId, formId: form.id, namespace: form.namespace }, { orgId: form.orgId, requestId }),
  );
}

export function announceTokenRevoked(deps: DirectoryDeps, orgId: number, tokenId: number, requestId?: string) {
  return announce(deps, createEnvelope(directoryEvents.tokenRevoked, { orgId, tokenId }, { orgId, requestId }));
}
