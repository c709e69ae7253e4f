/**
 * The first of each run of items equal by `same`, in order: the distinct values of a page
 * read sorted by them (a Mongo page of documents walked by their organization and record).
 */
export function distinctRuns<T>(items: T[], same: (a: T, b: T) => boolean): T[] {
  const distinct: T[] = [];
  for (const item of items) {
    const last = distinct[distinct.length - 1];
    if (last === undefined || !same(last, item)) distinct.push(item);
  }
  return distinct;
}
