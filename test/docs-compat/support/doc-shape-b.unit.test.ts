import { anyKeys, expectJsonShape, expectXmlShape } from './doc-shape-b';

describe('doc-shape-b (the compatibility suite\'s shape checks)', () => {
  it('holds JSON to the example\'s keys and value types, arrays element by element, extra keys allowed', () => {
    const example = { items: [{ id: 1, name: 'a', tags: ['x'] }], total: 2, note: null };
    expectJsonShape({ items: [{ id: 9, name: 'b', tags: [], extra: true }], total: 0, note: 'anything' }, example);
    expect(() => expectJsonShape({ items: [{ id: '9', name: 'b', tags: [] }], total: 0, note: null }, example)).toThrow(/\$\.items\[0\]\.id: a string, not a number/);
    expect(() => expectJsonShape({ items: [{ id: 1, tags: [] }], total: 0, note: null }, example)).toThrow(/no key name/);
    expect(() => expectJsonShape({ items: {}, total: 0, note: null }, example)).toThrow(/not an array/);
    expectJsonShape({ answers: { q1: { value: 'x', type: 'text' }, q2: { value: 'y', type: 'date' } } }, { answers: anyKeys({ value: 'v', type: 't' }) });
    expect(() => expectJsonShape({ answers: { q1: { value: 'x' } } }, { answers: anyKeys({ value: 'v', type: 't' }) })).toThrow(/\$\.answers\.q1: no key type/);
  });

  it('holds XML to the example\'s root and nested elements, attributes ignored', () => {
    const example = '<resources><resource><id>1</id><name>a</name></resource></resources>';
    expectXmlShape('<?xml version="1.0"?><resources type="array"><resource><id type="integer">3</id><name>b</name><more/></resource></resources>', example);
    expectXmlShape('<resources type="array"/>', example.replace(/<resource>.*<\/resource>/, ''));
    expect(() => expectXmlShape('<items><resource><id>1</id><name/></resource></items>', example)).toThrow(/root <items>/);
    expect(() => expectXmlShape('<resources><resource><id>1</id></resource></resources>', example)).toThrow(/no <name>/);
  });
});
