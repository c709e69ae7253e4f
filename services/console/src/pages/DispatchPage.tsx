import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { createDispatch, formDefinition, listDevices, listForms, type NewDispatch } from '../api/endpoints';
import type { Device, Dispatch, FormDefinition, FormSummary } from '../api/types';
import { EmptyState } from '../components/EmptyState';
import { ErrorNotice } from '../components/ErrorNotice';
import { FormPicker } from '../components/FormPicker';
import { Loaded } from '../components/Loaded';
import { QuestionFields } from '../components/QuestionField';
import { payloadOf, type Answers } from '../components/question-values';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';

/** Dispatch: a device, a form, its questions filled by type, optionally a time; send. */
export function DispatchPage({ api }: { api: ApiClient }) {
  const { state } = useLoad(async () => {
    const [devices, forms] = await Promise.all([listDevices(api), listForms(api)]);
    return { devices: devices.filter((d) => !d.pending_approval), forms };
  }, [api]);

  return (
    <section aria-labelledby="dispatch-title">
      <h1 id="dispatch-title">Dispatch a form</h1>
      <Loaded state={state}>
        {({ devices, forms }) =>
          devices.length === 0 ? (
            <EmptyState title="No approved device to dispatch to.">Approve a device on the Devices page first.</EmptyState>
          ) : forms.length === 0 ? (
            <EmptyState title="The organization has no form yet.">Create one through the forms API, then dispatch it here.</EmptyState>
          ) : (
            <DispatchForm api={api} devices={devices} forms={forms} />
          )
        }
      </Loaded>
    </section>
  );
}

function DispatchForm({ api, devices, forms }: { api: ApiClient; devices: Device[]; forms: FormSummary[] }) {
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [formId, setFormId] = useState<number | null>(null);
  const [answers, setAnswers] = useState<Answers>({});
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scheduled, setScheduled] = useState(false);
  const [scheduledAt, setScheduledAt] = useState('');
  const [sent, setSent] = useState<Dispatch | null>(null);
  const sending = useAction();
  const definition = useLoad<FormDefinition | null>(async () => (formId === null ? null : formDefinition(api, formId)), [api, formId]);

  const chooseForm = (id: number) => {
    setFormId(id);
    setAnswers({});
  };

  const send = async (event: Event) => {
    event.preventDefault();
    setSent(null);
    const form = forms.find((f) => f.id === formId);
    if (deviceId === null || form === undefined) {
      await sending.run(async () => {
        throw new Error('Choose a device and a form.');
      });
      return;
    }
    await sending.run(async () => {
      const dispatch: NewDispatch = { form_namespace: form.namespace, payload: payloadOf(answers) };
      if (name.trim() !== '') dispatch.form_name = name.trim();
      if (description.trim() !== '') dispatch.form_description = description.trim();
      if (scheduled) {
        const at = new Date(scheduledAt);
        if (scheduledAt === '' || Number.isNaN(at.getTime())) throw new Error('Choose the date and time to send it, or untick “Schedule it”.');
        dispatch.scheduled_at = at.toISOString();
      }
      setSent(await createDispatch(api, deviceId, dispatch));
      setAnswers({});
    });
  };

  const device = devices.find((d) => d.id === deviceId);
  return (
    <form onSubmit={send} class="card dispatch-form">
      <div class="field">
        <label for="dispatch-device">Device</label>
        <select id="dispatch-device" value={deviceId ?? ''} onChange={(e) => setDeviceId(Number(e.currentTarget.value))}>
          <option value="" disabled>
            Choose a device…
          </option>
          {devices.map((d) => (
            <option key={d.id} value={d.id}>
              {d.identifier}
              {d.owner ? ` (${d.owner})` : ''}
            </option>
          ))}
        </select>
      </div>
      <FormPicker forms={forms} value={formId} onChange={chooseForm} id="dispatch-form" />
      {formId !== null ? (
        <Loaded state={definition.state}>
          {(loaded) =>
            loaded === null ? null : (
              <fieldset class="questions">
                <legend>Values of “{loaded.title}”</legend>
                <p class="muted">Leave a question empty to let the device’s user answer it.</p>
                <QuestionFields questions={loaded.children} answers={answers} onChange={setAnswers} path="q" />
              </fieldset>
            )
          }
        </Loaded>
      ) : null}
      <details>
        <summary>Name and description shown on the device</summary>
        <div class="field">
          <label for="dispatch-name">Name (default: the form’s)</label>
          <input id="dispatch-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="dispatch-description">Description</label>
          <input id="dispatch-description" maxLength={255} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
      </details>
      <div class="field inline">
        <input id="dispatch-schedule" type="checkbox" checked={scheduled} onChange={(e) => setScheduled(e.currentTarget.checked)} />
        <label for="dispatch-schedule">Schedule it</label>
      </div>
      {scheduled ? (
        <div class="field">
          <label for="dispatch-at">Send at (your local time)</label>
          <input id="dispatch-at" type="datetime-local" value={scheduledAt} onInput={(e) => setScheduledAt(e.currentTarget.value)} />
        </div>
      ) : null}
      <ErrorNotice message={sending.error} />
      {sent ? (
        <p class="notice notice-ok" role="status">
          Dispatch #{sent.id} “{sent.name}” {sent.scheduled_at ? `is scheduled for ${new Date(sent.scheduled_at).toLocaleString()}` : 'was sent'} to{' '}
          {device?.identifier ?? `device ${sent.device_id}`}. <a href="#outstanding">See the outstanding work</a>
        </p>
      ) : null}
      <button type="submit" disabled={sending.busy}>
        {sending.busy ? 'Sending…' : scheduled ? 'Schedule' : 'Send'}
      </button>
    </form>
  );
}
