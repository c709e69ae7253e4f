import type { ComponentChildren } from 'preact';
import type { LoadState } from '../hooks/use-load';
import { ErrorNotice } from './ErrorNotice';

/** A load's value once there, a loading line before, its error if it failed. */
export function Loaded<T>({ state, children }: { state: LoadState<T>; children: (value: T) => ComponentChildren }) {
  if (state.kind === 'loading') return <p class="loading" aria-live="polite">Loading…</p>;
  if (state.kind === 'failed') return <ErrorNotice message={state.message} />;
  return <>{children(state.value)}</>;
}
