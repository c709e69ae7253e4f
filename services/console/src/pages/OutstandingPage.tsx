import { useCallback, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { listDevices, organizationDispatches, revokeDispatch } from '../api/endpoints';
import type { Dispatch } from '../api/types';
import { EmptyState } from '../components/EmptyState';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loaded } from '../components/Loaded';
import { formatTime } from '../components/format-time';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';
import { usePolling } from '../hooks/use-polling';
import { DataTable } from '../components/DataTable';

/** How often the list is read again (the gateway sends no ETags: a plain poll). */
export const outstandingPollMs = 3000;

/** Outstanding work: every dispatch not yet ended, for the organization or one device; revoke. */
export function OutstandingPage({ api }: { api: ApiClient }) {
  const { state, reload } = useLoad(async () => {
    const [dispatches, devices] = await Promise.all([organizationDispatches(api), listDevices(api)]);
    return { dispatches, devices: new Map(devices.map((d) => [d.id, d.identifier])) };
  }, [api]);
  const poll = useCallback(() => void reload(), [reload]);
  usePolling(poll, outstandingPollMs);
  const [deviceFilter, setDeviceFilter] = useState<number | 'all'>('all');
  const revoking = useAction();

  const revoke = async (dispatch: Dispatch) => {
    if (await revoking.run(() => revokeDispatch(api, dispatch.id))) await reload();
  };

  return (
    <section aria-labelledby="outstanding-title">
      <h1 id="outstanding-title">Outstanding work</h1>
      <p class="muted">Dispatches not yet submitted or revoked. This list refreshes by itself every few seconds.</p>
      <ErrorNotice message={revoking.error} />
      <Loaded state={state}>
        {({ dispatches, devices }) => {
          const counts = countByDevice(dispatches);
          const shown = deviceFilter === 'all' ? dispatches : dispatches.filter((d) => d.device_id === deviceFilter);
          const nameOf = (id: number) => devices.get(id) ?? `device ${id}`;
          return (
            <>
              <div class="field">
                <label for="outstanding-device">Show</label>
                <select
                  id="outstanding-device"
                  value={String(deviceFilter)}
                  onChange={(e) => setDeviceFilter(e.currentTarget.value === 'all' ? 'all' : Number(e.currentTarget.value))}
                >
                  <option value="all">The whole organization ({dispatches.length})</option>
                  {[...counts].map(([deviceId, count]) => (
                    <option key={deviceId} value={deviceId}>
                      {nameOf(deviceId)} ({count})
                    </option>
                  ))}
                </select>
              </div>
              {shown.length === 0 ? (
                <EmptyState title="Nothing outstanding.">Dispatches sent from the Dispatch page, or through the API, appear here until they are submitted.</EmptyState>
              ) : (
                <DataTable
                  label="Outstanding dispatches"
                  columns={['#', 'Form', 'Device', 'Created', 'Scheduled for']}
                  items={shown}
                  row={(d) => (
                    <tr key={d.id} data-dispatch={d.id}>
                      <td>{d.id}</td>
                      <td>
                        {d.name}
                        {d.description ? <div class="muted">{d.description}</div> : null}
                      </td>
                      <td>{nameOf(d.device_id)}</td>
                      <td>{formatTime(d.created_at)}</td>
                      <td>{d.scheduled_at ? formatTime(d.scheduled_at) : 'at once'}</td>
                      <td>
                        <button type="button" class="danger" disabled={revoking.busy} onClick={() => revoke(d)} aria-label={`Revoke dispatch ${d.id}`}>
                          Revoke
                        </button>
                      </td>
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

function countByDevice(dispatches: Dispatch[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const d of dispatches) counts.set(d.device_id, (counts.get(d.device_id) ?? 0) + 1);
  return counts;
}
