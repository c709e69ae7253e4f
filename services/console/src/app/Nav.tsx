import { pages, type PageId } from './pages';

/** The pages as links (#devices, …): keyboard and back button work as on any site. */
export function Nav({ current, orgId, onSignOut }: { current: PageId; orgId: number; onSignOut: () => void }) {
  return (
    <header class="top">
      <div class="brand">
        Formcast <span class="muted">organization {orgId}</span>
      </div>
      <nav aria-label="Console">
        <ul>
          {pages.map((page) => (
            <li key={page.id}>
              <a href={`#${page.id}`} aria-current={page.id === current ? 'page' : undefined}>
                {page.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" class="secondary sign-out" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}
