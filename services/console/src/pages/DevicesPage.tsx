import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { approveDevice, deviceBadge, listDevices } from '../api/endpoints';
import type { Device, DeviceBadge } from '../api/types';
import { DataTable } from '../components/DataTable';
import { DoneNotice } from '../components/DoneNotice';
import { EmptyState } from '../components/EmptyState';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loaded } from '../components/Loaded';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';

interface DeviceRow {
  device: Device;
  /** Its outstanding dispatches and whether it has a push token; null when it could not be read. */
  badge: DeviceBadge | null;
}

async function loadDevices(api: ApiClient): Promise<DeviceRow[]> {
  const devices = await listDevices(api);
  return Promise.all(
    devices.map(async (device) => ({
      device,
      badge: device.pending_approval ? null : await deviceBadge(api, device.id).catch(() => null),
    })),
  );
}

/** Devices: those waiting for approval (approve them here), then the approved ones. */
export function DevicesPage({ api }: { api: ApiClient }) {
  const { state, reload } = useLoad(() => loadDevices(api), [api]);
  const approval = useAction();
  const [approved, setApproved] = useState<string | null>(null);

  const approve = async (device: Device) => {
    setApproved(null);
    if (await approval.run(() => approveDevice(api, device.id))) {
      setApproved(`${device.identifier} is approved.`);
      await reload();
    }
  };

  return (
    <section aria-labelledby="devices-title">
      <h1 id="devices-title">Devices</h1>
      <ErrorNotice message={approval.error} />
      <DoneNotice message={approved} />
      <Loaded state={state}>
        {(rows) => {
          const pending = rows.filter((r) => r.device.pending_approval);
          const active = rows.filter((r) => !r.device.pending_approval);
          return (
            <>
              <h2>Waiting for approval</h2>
              {pending.length === 0 ? (
                <EmptyState title="No device is waiting for approval.">Devices that enroll with the organization’s enrollment code appear here.</EmptyState>
              ) : (
                <ul class="cards" aria-label="Devices waiting for approval">
                  {pending.map(({ device }) => (
                    <li key={device.id} class="card pending-device">
                      <div>
                        <strong>{device.identifier}</strong>
                        <div class="muted">
                          {device.owner || 'No owner'}
                          {device.description ? ` · ${device.description}` : ''}
                        </div>
                      </div>
                      <button type="button" disabled={approval.busy} onClick={() => approve(device)} aria-label={`Approve ${device.identifier}`}>
                        Approve
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <h2>Approved devices</h2>
              {active.length === 0 ? (
                <EmptyState title="No approved device yet." />
              ) : (
                <DataTable
                  label="Approved devices"
                  columns={['Device', 'Owner', 'Groups', 'Push token', 'Badge']}
                  actions={false}
                  items={active}
                  row={({ device, badge }) => (
                    <tr key={device.id} data-device={device.identifier}>
                      <td>{device.identifier}</td>
                      <td>{device.owner || '—'}</td>
                      <td>{device.groups.map((g) => g.name).join(', ') || '—'}</td>
                      <td class="push-token-cell">{pushTokenText(badge)}</td>
                      <td class="badge-cell">{badge === null ? '?' : badge.badge}</td>
                    </tr>
                  )}
                />
              )}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function pushTokenText(badge: DeviceBadge | null): string {
  if (badge === null) return 'not reported';
  return badge.push_token_present ? 'Yes' : 'No';
}
