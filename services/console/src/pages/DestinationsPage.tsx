import type { ApiClient } from '../api/client';
import { listDestinations, listForms } from '../api/endpoints';
import { EmptyState } from '../components/EmptyState';
import { Loaded } from '../components/Loaded';
import { useLoad } from '../hooks/use-load';
import { DestinationCard } from './DestinationCard';

/** Destinations of every form, each with its delivery log; failing ones marked. */
export function DestinationsPage({ api }: { api: ApiClient }) {
  const { state } = useLoad(async () => {
    const forms = await listForms(api);
    return Promise.all(forms.map(async (form) => ({ form, destinations: await listDestinations(api, form.id) })));
  }, [api]);
  return (
    <section aria-labelledby="destinations-title">
      <h1 id="destinations-title">Destinations</h1>
      <p class="muted">Where each form’s submissions are delivered, with every attempt. Logs refresh by themselves.</p>
      <Loaded state={state}>
        {(byForm) => {
          const withDestinations = byForm.filter((f) => f.destinations.length > 0);
          if (withDestinations.length === 0) {
            return <EmptyState title="No destination yet.">Add one to a form with the Destinations API (POST /api/forms/&lt;id&gt;/destinations.json).</EmptyState>;
          }
          return withDestinations.map(({ form, destinations }) => (
            <section key={form.id} aria-label={`Destinations of ${form.name}`}>
              <h2>{form.name}</h2>
              <ul class="cards">
                {destinations.map((destination) => (
                  <DestinationCard key={destination.id} api={api} formId={form.id} destination={destination} />
                ))}
              </ul>
            </section>
          ));
        }}
      </Loaded>
    </section>
  );
}
