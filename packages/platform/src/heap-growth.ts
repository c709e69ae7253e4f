import { setFlagsFromString } from 'node:v8';

/** After a full collection, V8 lets the old generation grow to this much more than what survived. */
export const heapGrowingPercent = 150;

/**
 * Caps how far V8 lets the heap grow between full collections: to 2.5 times what survived
 * the last one, where V8's own factor goes up to 4. Measured (issue 7, S3: the embedded
 * process listing 10,000 outstanding oneshots to two clients): ~30 MB live, the old
 * generation grown to ~80 MB of mostly garbage, peak RSS ~153 MB; with this, 126–130 MB at
 * the same CPU a listing, and S1's p99 unchanged. At 100 (twice) the peak was ~117 MB but
 * S1's p99 went from ~1.5 to ~1.85 × A1's: full collections twice as often.
 *
 * Set from code, not on the command line: V8 reads it at every collection, and Node refuses
 * it in NODE_OPTIONS, which is how the image and its Kubernetes and Compose commands pass
 * flags. Every process's entry point calls this first.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
