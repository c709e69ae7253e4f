import { useCallback, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { deliveryLog, redeliver } from '../api/endpoints';
import type { Delivery, Destination } from '../api/types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loaded } from '../components/Loaded';
import { formatTime } from '../components/format-time';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';
import { usePolling } from '../hooks/use-polling';
import { destinationHealth, type DestinationHealth } from './destination-health';
import { DataTable } from '../components/DataTable';
import { DoneNotice } from '../components/DoneNotice';

const logLength = 10;
const logPollMs = 5000;

/** One destination: its state, its newest deliveries with their attempts, redeliver. */
export function DestinationCard({ api, formId, destination }: { api: ApiClient; formId: number; destination: Destination }) {
  const { state, reload } = useLoad(() => deliveryLog(api, formId, destination.id, logLength), [api, formId, destination.id]);
  usePolling(
    useCallback(() => void reload(), [reload]),
    logPollMs,
  );
  const redelivering = useAction();
  const [queued, setQueued] = useState<string | null>(null);

  const again = async (delivery: Delivery) => {
    setQueued(null);
    if (await redelivering.run(() => redeliver(api, formId, destination.id, delivery))) {
      setQueued(`Delivery #${delivery.id} is queued to be sent again.`);
      await reload();
    }
  };

  const health = state.kind === 'loaded' ? destinationHealth(destination, state.value.deliveries) : null;
  return (
    <li class={`card destination${health?.kind === 'failing' || health?.kind === 'off' ? ' destination-failing' : ''}`} data-destination={destination.id}>
      <div class="destination-head">
        <strong>{destination.description || `Destination ${destination.id}`}</strong>
        <span class="muted">
          {' '}
          · {destination.transport_type.replace('_transport', '')} · {destination.format_type.replace('_format', '')}
        </span>
        {health ? <HealthMark health={health} /> : null}
      </div>
      <ErrorNotice message={redelivering.error} />
      <DoneNotice message={queued} />
      <Loaded state={state}>
        {(log) =>
          log.deliveries.length === 0 ? (
            <p class="muted">Nothing delivered yet: deliveries appear with the form’s next submission.</p>
          ) : (
            <DataTable
              label={`Deliveries of ${destination.description || destination.id}`}
              columns={['Delivery', 'Status', 'Attempts', 'Next retry']}
              items={log.deliveries}
              row={(delivery) => (
                <tr key={delivery.id} data-delivery={delivery.id}>
                  <td>
                    #{delivery.id}
                    <div class="muted">submission {delivery.submission_id}</div>
                  </td>
                  <td class={`status status-${delivery.status}`}>{delivery.status}</td>
                  <td>
                    <ol class="attempts">
                      {delivery.attempts.map((attempt, index) => (
                        <li key={index}>
                          {formatTime(attempt.attempted_at)}: <strong>{attempt.status_code ?? 'no answer'}</strong>
                          {attempt.error ? <span class="muted"> ({attempt.error})</span> : null}
                          <span class="muted"> · {attempt.duration_ms} ms</span>
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td>{formatTime(delivery.next_attempt_at)}</td>
                  <td>
                    <button type="button" class="secondary" disabled={redelivering.busy} onClick={() => again(delivery)} aria-label={`Redeliver delivery ${delivery.id}`}>
                      Redeliver
                    </button>
                  </td>
                </tr>
              )}
            />
          )
        }
      </Loaded>
    </li>
  );
}

function HealthMark({ health }: { health: DestinationHealth }) {
  switch (health.kind) {
    case 'off':
      return <span class="mark mark-bad">Off: {health.reason}</span>;
    case 'failing':
      return <span class="mark mark-bad">Failing: {health.detail}</span>;
    case 'ok':
      return <span class="mark mark-ok">Delivering</span>;
    case 'unused':
      return null;
  }
}
