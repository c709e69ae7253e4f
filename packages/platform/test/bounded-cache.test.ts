import { BoundedCache } from '../src/bounded-cache';

describe('BoundedCache', () => {
  it('makes a value once, keeps null and undefined too, and forgets the oldest made past its bound', () => {
    const cache = new BoundedCache<string, string | null>(2);
    let made = 0;
    const make = (value: string | null) => () => {
      made += 1;
      return value;
    };
    expect(cache.getOrMake('a', make('A'))).toBe('A');
    expect(cache.getOrMake('a', make('other'))).toBe('A');
    expect(cache.getOrMake('n', make(null))).toBeNull();
    expect(cache.getOrMake('n', make('other'))).toBeNull();
    expect(made).toBe(2);
    expect(cache.getOrMake('b', make('B'))).toBe('B');
    expect(cache.size).toBe(2);
    expect(cache.getOrMake('a', make('A again'))).toBe('A again');
    expect(cache.getOrMake('b', make('other'))).toBe('B');
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
