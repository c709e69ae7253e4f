type Awaited2<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/**
 * Like Promise.all, but when several fail the error thrown is the first one's in argument
 * order, not whichever failed first in time: a request naming an unknown device and an
 * unknown form gets the same answer every time (the device's), however the reads race.
 */
export async function allInOrder<T extends readonly unknown[]>(promises: readonly [...T]): Promise<Awaited2<T>> {
  const outcomes = await Promise.allSettled(promises);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as Awaited2<T>;
}
