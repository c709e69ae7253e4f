import { uniqueName } from '../src/unique-name';

describe('uniqueName', () => {
  it('keeps the prefix and differs on every call', () => {
    const names = Array.from({ length: 100 }, () => uniqueName('db'));
    expect(names.every((name) => /^db_[0-9a-f]{12}$/.test(name))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });
});
