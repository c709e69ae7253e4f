import type { ComponentChildren } from 'preact';

/** What a list shows when it has nothing: what that means, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children ? <p class="empty-hint">{children}</p> : null}
    </div>
  );
}
