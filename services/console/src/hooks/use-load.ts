import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type LoadState<T> =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'loaded'; value: T };

/**
 * Runs `load` when `key` changes and on `reload()`. A reload keeps the value shown until
 * the new one arrives (no flicker while polling); an answer that a newer load overtook is
 * dropped.
 */
export function useLoad<T>(load: () => Promise<T>, key: unknown[]): { state: LoadState<T>; reload: () => Promise<void> } {
  const [state, setState] = useState<LoadState<T>>({ kind: 'loading' });
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const reload = useCallback(async () => {
    latest.current += 1;
    const mine = latest.current;
    try {
      const value = await loadRef.current();
      if (mine === latest.current) setState({ kind: 'loaded', value });
    } catch (error) {
      if (mine === latest.current) setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }, []);

  useEffect(() => {
    setState({ kind: 'loading' });
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, key);

  return { state, reload };
}
