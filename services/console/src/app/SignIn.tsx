import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { ApiClient } from '../api/client';
import { listForms } from '../api/endpoints';
import type { Session } from '../api/session';
import { ErrorNotice } from '../components/ErrorNotice';

/**
 * Sign-in with the organization's id (as in the API's /organizations/<id>/… paths) and an
 * API token. The pair is checked with one call before the console opens.
 */
export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: (session: Session) => void }) {
  const [orgId, setOrgId] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const id = Number(orgId.trim());
    if (!Number.isInteger(id) || id < 1) {
      setError('The organization id is a whole number, as in /organizations/<id>/ of the API.');
      return;
    }
    if (token.trim() === '') {
      setError('Paste the organization’s API token.');
      return;
    }
    const session = { orgId: id, token: token.trim() };
    setBusy(true);
    setError(null);
    try {
      await listForms(new ApiClient(session, () => undefined));
      onSignedIn(session);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) setError('That API token was refused. Check it, or ask for a new one.');
      else if (failure instanceof ApiError && failure.status === 404) setError('This token does not belong to that organization id.');
      else setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>Formcast console</h1>
      <p class="muted">Sign in with your organization’s API token. It is kept in this tab only, until you close it or sign out.</p>
      {notice ? (
        <p class="notice notice-warning" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={submit} class="card">
        <div class="field">
          <label for="org-id">Organization id</label>
          <input id="org-id" name="org-id" inputMode="numeric" autoComplete="off" value={orgId} onInput={(e) => setOrgId(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="api-token">API token</label>
          <input id="api-token" name="api-token" type="password" autoComplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        </div>
        <ErrorNotice message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
