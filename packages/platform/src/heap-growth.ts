import { setFlagsFromString } from 'node:v8';

/** After a full collection, V8 lets the old generation grow to this much more than what survived. */
export const heapGrowingPercent = 125;

/**
 * Caps how far V8 lets the heap grow between full collections: to 2.25 times what survived
 * the last one, where V8's own factor goes up to 4. Measured (issue 7, the embedded process;
 * S3 lists 10,000 outstanding oneshots to two clients, S4 then uploads a 10 MB file): ~30
 * MB live, the old generation grown to ~80 MB of mostly garbage; peak RSS in S3 ~153 MB
 * without this, 123–125 MB with it, 117 MB at 100 %, 126–130 MB at 150 %. During S4, which
 * starts from what S3 left: 145–146 MB (150 %: 151–152, over issue 7's 150 MB; 100 %:
 * 139–143). The cost is in S1's p99, full collections being more frequent: ~1.4–1.5 × A1's
 * without, 1.57–1.61 with this, 1.84–2.0 at 100 %. Same CPU a listing and pushes a second.
 *
 * Set from code, not by bin/formcast-node with the other flags: V8 reads it at every
 * collection, and setting it here also covers a process started as `node <main.js>` (tests,
 * a debugger). Node refuses it in NODE_OPTIONS. Every process's entry point calls this first.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}
