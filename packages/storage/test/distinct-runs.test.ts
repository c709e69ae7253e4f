import { distinctRuns } from '../src';

describe('distinctRuns', () => {
  const sameRef = (a: { org: number; id: number }, b: { org: number; id: number }) => a.org === b.org && a.id === b.id;

  it('keeps the first of each run of equal items, in order', () => {
    const page = [
      { org: 1, id: 1, n: 'a' },
      { org: 1, id: 1, n: 'b' },
      { org: 1, id: 2, n: 'c' },
      { org: 2, id: 2, n: 'd' },
      { org: 2, id: 2, n: 'e' },
    ];
    expect(distinctRuns(page, sameRef).map((item) => item.n)).toEqual(['a', 'c', 'd']);
  });

  it('gives nothing for nothing, and keeps an item equal to one before a different one (runs, not a set)', () => {
    expect(distinctRuns([], sameRef)).toEqual([]);
    const page = [
      { org: 1, id: 1 },
      { org: 1, id: 2 },
      { org: 1, id: 1 },
    ];
    expect(distinctRuns(page, sameRef)).toEqual(page);
  });
});
