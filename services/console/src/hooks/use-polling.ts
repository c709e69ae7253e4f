import { useEffect } from 'preact/hooks';

/**
 * Calls `poll` every `intervalMs` while the tab is visible, and at once when it becomes
 * visible again. The gateway sends no ETags, so each poll is a full (small) request.
 */
export function usePolling(poll: () => void, intervalMs: number): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') poll();
    }, intervalMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') poll();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [poll, intervalMs]);
}
