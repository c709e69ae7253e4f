/** Who is signed in: kept in this tab's sessionStorage only, never a cookie or localStorage. */
export interface Session {
  orgId: number;
  token: string;
}

const key = 'formcast.console.session';

export function loadSession(): Session | null {
  const raw = sessionStorage.getItem(key);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.orgId === 'number' && typeof parsed.token === 'string' ? { orgId: parsed.orgId, token: parsed.token } : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(key, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(key);
}
