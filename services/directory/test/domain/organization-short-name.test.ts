import { shortNameOf } from '../../src/domain/organization-rules';

describe("an organization's short name (the performance metric report's Org Short Name)", () => {
  it.each([
    ['Acme Field Ops', 'acme_field_ops'],
    ['=Acme, "North" embedded', 'acme_north_embedded'],
    ['Café Über', 'cafe_uber'],
    ['  ', ''],
    ['A--B__C', 'a_b_c'],
  ])('%j → %j', (name, expected) => {
    expect(shortNameOf(name)).toBe(expected);
  });
});
