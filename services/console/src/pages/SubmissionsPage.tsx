import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { listForms, submissionPage } from '../api/endpoints';
import type { FormSummary, SubmissionRecord } from '../api/types';
import { AnswerList } from '../components/AnswerList';
import { EmptyState } from '../components/EmptyState';
import { FormPicker } from '../components/FormPicker';
import { Loaded } from '../components/Loaded';
import { Pager } from '../components/Pager';
import { useLoad } from '../hooks/use-load';

const perPage = 10;

/** Submissions of one form, a page at a time, oldest first as the submissions database API gives them. */
export function SubmissionsPage({ api }: { api: ApiClient }) {
  const { state } = useLoad(() => listForms(api), [api]);
  return (
    <section aria-labelledby="submissions-title">
      <h1 id="submissions-title">Submissions</h1>
      <Loaded state={state}>
        {(forms) =>
          forms.length === 0 ? <EmptyState title="The organization has no form yet, so no submission either." /> : <FormSubmissions api={api} forms={forms} />
        }
      </Loaded>
    </section>
  );
}

function FormSubmissions({ api, forms }: { api: ApiClient; forms: FormSummary[] }) {
  const [formId, setFormId] = useState<number>(forms[0]!.id);
  const [page, setPage] = useState(1);
  const { state } = useLoad(() => submissionPage(api, formId, page, perPage), [api, formId, page]);
  return (
    <>
      <FormPicker
        forms={forms}
        value={formId}
        onChange={(id) => {
          setFormId(id);
          setPage(1);
        }}
        id="submissions-form"
      />
      <Loaded state={state}>
        {(result) =>
          result.submissions.length === 0 ? (
            <EmptyState title="No submission of this form yet." />
          ) : (
            <>
              <p class="muted">{result.total_count} in all</p>
              <ul class="cards" aria-label="Submissions">
                {result.submissions.map((s) => (
                  <SubmissionCard key={String(s.metadata.submission_id.value)} submission={s} />
                ))}
              </ul>
              <Pager page={result.current_page} pages={result.total_pages} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

function SubmissionCard({ submission }: { submission: SubmissionRecord }) {
  const meta = (name: keyof SubmissionRecord['metadata']) => {
    const value = submission.metadata[name].value;
    return value === null || value === undefined ? '—' : String(value);
  };
  return (
    <li class="card submission" data-submission={meta('submission_id')}>
      <div class="submission-head">
        <strong>#{meta('submission_id')}</strong> from <strong>{meta('device_id')}</strong>
        {meta('username') !== '—' ? ` (${meta('username')})` : ''}
        <span class="muted"> · submitted {meta('submitted_at')} · form version {submission.form.version}</span>
      </div>
      <AnswerList answers={submission.submission} />
    </li>
  );
}
