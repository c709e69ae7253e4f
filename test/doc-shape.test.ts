import { docJson, shapeMismatches, xmlShapeMismatches } from './support/doc-shape';

/** The compatibility suite's shape checks (test/support/doc-shape.ts) must see what differs. */
describe('doc-shape', () => {
  const example = docJson('{"dispatches":[{"id":296,"name":"x","inputs":{"Q":"A",},"scheduled_at":"2020",},]}');

  it('reads the docs\' JSON with trailing commas', () => {
    expect(example).toEqual({ dispatches: [{ id: 296, name: 'x', inputs: { Q: 'A' }, scheduled_at: '2020' }] });
  });

  it('holds an answer with the same keys and types, extra keys allowed', () => {
    expect(shapeMismatches({ dispatches: [{ id: 1, name: 'y', inputs: { Q: 'A' }, scheduled_at: 'z', extra: true }] }, example)).toEqual([]);
  });

  it('names a missing key, a wrong type, a wrapping, an empty list, and keys that are data', () => {
    expect(shapeMismatches({ dispatches: [{ id: '1', inputs: {}, scheduled_at: null }] }, example)).toEqual([
      expect.stringMatching(/^\$\.dispatches\[\]\.id: the docs show number/),
      '$.dispatches[].name: documented, missing from Formcast\'s answer',
      '$.dispatches[].inputs.Q: documented, missing from Formcast\'s answer',
      expect.stringMatching(/^\$\.dispatches\[\]\.scheduled_at: the docs show string/),
    ]);
    expect(shapeMismatches({ dispatches: [{ id: 1, name: 'y', inputs: { other: 1 }, scheduled_at: null }] }, example, { freeKeys: ['$.dispatches[].inputs'], nullable: ['$.dispatches[].scheduled_at'] })).toEqual([]);
    expect(shapeMismatches({ dispatch: { id: 1 } }, { id: 1 })).toEqual(['$.id: documented, missing from Formcast\'s answer']);
    expect(shapeMismatches({ dispatches: [] }, example)).toEqual([expect.stringMatching(/has none/)]);
  });

  it('compares XML roots and elements, not attributes', () => {
    const doc = '<?xml version="1.0"?><dispatches type="array"><dispatch><id>1</id><device-id>4</device-id><inputs><Q>A</Q></inputs></dispatch></dispatches>';
    expect(xmlShapeMismatches('<dispatches><dispatch><id type="integer">2</id><device-id>5</device-id><inputs><R>B</R></inputs><more/></dispatch></dispatches>', doc, { freeElements: ['/dispatches/dispatch/inputs'] })).toEqual([]);
    expect(xmlShapeMismatches('<dispatches><dispatch><id>2</id><inputs><R>B</R></inputs></dispatch></dispatches>', doc)).toEqual([
      "/dispatches/dispatch/device-id: documented, missing from Formcast's answer",
      "/dispatches/dispatch/inputs/Q: documented, missing from Formcast's answer",
    ]);
    expect(xmlShapeMismatches('<dispatch><id>2</id></dispatch>', doc)).toEqual(['root: the docs show <dispatches>, Formcast answers <dispatch>']);
  });
});
