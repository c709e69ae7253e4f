/** The console's pages, in the order of the navigation; the hash of the URL names one. */
export const pages = [
  { id: 'devices', title: 'Devices' },
  { id: 'dispatch', title: 'Dispatch' },
  { id: 'outstanding', title: 'Outstanding work' },
  { id: 'submissions', title: 'Submissions' },
  { id: 'destinations', title: 'Destinations' },
  { id: 'resources', title: 'Resources' },
] as const;

export type PageId = (typeof pages)[number]['id'];

export function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '');
  return pages.find((page) => page.id === id)?.id ?? 'devices';
}
