import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiClient } from '../api/client';
import { clearSession, loadSession, saveSession, type Session } from '../api/session';
import { DestinationsPage } from '../pages/DestinationsPage';
import { DevicesPage } from '../pages/DevicesPage';
import { DispatchPage } from '../pages/DispatchPage';
import { OutstandingPage } from '../pages/OutstandingPage';
import { ResourcesPage } from '../pages/ResourcesPage';
import { SubmissionsPage } from '../pages/SubmissionsPage';
import { Nav } from './Nav';
import { pageFromHash, pages, type PageId } from './pages';
import { SignIn } from './SignIn';

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [notice, setNotice] = useState<string | null>(null);
  const [page, setPage] = useState<PageId>(() => pageFromHash(location.hash));

  useEffect(() => {
    const onHash = () => setPage(pageFromHash(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    const title = session === null ? 'Sign in' : (pages.find((p) => p.id === page)?.title ?? '');
    document.title = `${title} · Formcast console`;
  }, [page, session]);

  const api = useMemo(() => {
    if (session === null) return null;
    return new ApiClient(session, () => {
      clearSession();
      setSession(null);
      setNotice('Your session ended: the API token was refused (revoked or expired). Sign in again.');
    });
  }, [session]);

  if (api === null) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(signedIn) => {
          saveSession(signedIn);
          setNotice(null);
          setSession(signedIn);
        }}
      />
    );
  }

  const signOut = () => {
    clearSession();
    setNotice('Signed out.');
    setSession(null);
  };

  return (
    <>
      <Nav current={page} orgId={api.orgId} onSignOut={signOut} />
      <main class="page" id="main">
        {page === 'devices' && <DevicesPage api={api} />}
        {page === 'dispatch' && <DispatchPage api={api} />}
        {page === 'outstanding' && <OutstandingPage api={api} />}
        {page === 'submissions' && <SubmissionsPage api={api} />}
        {page === 'destinations' && <DestinationsPage api={api} />}
        {page === 'resources' && <ResourcesPage api={api} />}
      </main>
    </>
  );
}
