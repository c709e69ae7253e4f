import type { FormSummary } from '../api/types';

/** A select of the organization's forms. */
export function FormPicker({
  forms,
  value,
  onChange,
  id = 'form-picker',
}: {
  forms: FormSummary[];
  value: number | null;
  onChange: (formId: number) => void;
  id?: string;
}) {
  return (
    <div class="field">
      <label for={id}>Form</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(Number(e.currentTarget.value))}>
        <option value="" disabled>
          Choose a form…
        </option>
        {forms.map((form) => (
          <option key={form.id} value={form.id}>
            {form.name} (v{form.version})
          </option>
        ))}
      </select>
    </div>
  );
}
