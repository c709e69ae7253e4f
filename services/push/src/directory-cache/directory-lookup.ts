import type { Bus } from '@formcast/bus';
import { ExpiringCache } from '@formcast/platform';
import { createEnvelope, directoryCommands, type ResolvedDevice, type ResolvedForm } from '@formcast/contracts';

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
  private readonly devices: ExpiringCache<string, ResolvedDevice>;
  private readonly forms: ExpiringCache<string, ResolvedForm>;

  constructor(
    private readonly bus: Bus,
    private readonly options: { ttlMs: number; timeoutMs: number; maxEntries?: number },
  ) {
    const cacheOptions = { ttlMs: options.ttlMs, maxEntries: options.maxEntries ?? 100_000 };
    this.devices = new ExpiringCache(cacheOptions);
    this.forms = new ExpiringCache(cacheOptions);
  }

  async device(orgId: number, ref: string, requestId: string): Promise<ResolvedDevice> {
    const key = `${orgId}:${ref}`;
    const cached = this.devices.get(key);
    if (cached) return cached;
    const device = await this.bus.request<ResolvedDevice>(
      createEnvelope(directoryCommands.resolveDevice, { ref }, { orgId, requestId }),
      { timeoutMs: this.options.timeoutMs },
    );
    this.devices.set(key, device);
    this.devices.set(`${orgId}:${device.id}`, device);
    this.devices.set(`${orgId}:${device.identifier}`, device);
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
    const cached = this.forms.get(key);
    if (cached) return cached;
    const form = await this.bus.request<ResolvedForm>(createEnvelope(directoryCommands.resolveForm, by, { orgId, requestId }), {
      timeoutMs: this.options.timeoutMs,
    });
    this.forms.set(formByNamespace(orgId, form.namespace), form);
    this.forms.set(formById(orgId, form.id), form);
    return form;
  }
}
