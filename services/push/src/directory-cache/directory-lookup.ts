import type { Bus } from '@formcast/bus';
import { createEnvelope, directoryCommands, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** A template's cache keys: by namespace and by id. */
const formByNamespace = (orgId: number, namespace: string) => `${orgId}:${namespace}`;
const formById = (orgId: number, formId: number) => `${orgId}#${formId}`;

/**
 * What push needs from the directory (a device by identifier or id, a template by
 * namespace or id), cached so the hot path (create) costs no bus round trip. Entries are dropped
 * when the directory announces a change (`directory.device.changed`, `.form.changed`), and
 * expire after `ttlMs` anyway: announcements are best effort, and with several push
 * replicas only one of them receives each one.
 */
export class DirectoryLookup {
  private readonly devices = new Map<string, Entry<ResolvedDevice>>();
  private readonly forms = new Map<string, Entry<ResolvedForm>>();

  constructor(
    private readonly bus: Bus,
    private readonly options: { ttlMs: number; timeoutMs: number; maxEntries?: number },
  ) {}

  async device(orgId: number, ref: string, requestId: string): Promise<ResolvedDevice> {
    const key = `${orgId}:${ref}`;
    const cached = this.fresh(this.devices, key);
    if (cached) return cached;
    const device = await this.bus.request<ResolvedDevice>(
      createEnvelope(directoryCommands.resolveDevice, { ref }, { orgId, requestId }),
      { timeoutMs: this.options.timeoutMs },
    );
    this.remember(this.devices, key, device);
    this.remember(this.devices, `${orgId}:${device.id}`, device);
    this.remember(this.devices, `${orgId}:${device.identifier}`, device);
    return device;
  }

  async form(orgId: number, namespace: string, requestId: string): Promise<ResolvedForm> {
    return this.resolveForm(orgId, formByNamespace(orgId, namespace), { namespace }, requestId);
  }

  async formById(orgId: number, formId: number, requestId: string): Promise<ResolvedForm> {
    return this.resolveForm(orgId, formById(orgId, formId), { formId }, requestId);
  }

  forgetDevice(orgId: number, deviceId: number, identifier: string): void {
    this.devices.delete(`${orgId}:${deviceId}`);
    this.devices.delete(`${orgId}:${identifier}`);
  }

  forgetForm(orgId: number, formId: number, namespace: string): void {
    this.forms.delete(formByNamespace(orgId, namespace));
    this.forms.delete(formById(orgId, formId));
  }

  private async resolveForm(orgId: number, key: string, by: { namespace: string } | { formId: number }, requestId: string): Promise<ResolvedForm> {
    const cached = this.fresh(this.forms, key);
    if (cached) return cached;
    const form = await this.bus.request<ResolvedForm>(createEnvelope(directoryCommands.resolveForm, by, { orgId, requestId }), {
      timeoutMs: this.options.timeoutMs,
    });
    this.remember(this.forms, formByNamespace(orgId, form.namespace), form);
    this.remember(this.forms, formById(orgId, form.id), form);
    return form;
  }

  private fresh<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    map.delete(key);
    return undefined;
  }

  private remember<T>(map: Map<string, Entry<T>>, key: string, value: T): void {
    const max = this.options.maxEntries ?? 100_000;
    if (map.size >= max) map.delete(map.keys().next().value!);
    map.set(key, { value, expiresAt: Date.now() + this.options.ttlMs });
  }
}
