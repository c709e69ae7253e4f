import { Output, table } from '../src/output';

describe('output', () => {
  it('pads columns to their widest cell and shows null as -', () => {
    expect(table(['ID', 'NAME'], [[1, 'Acme'], [12, null]])).toBe('ID  NAME\n1   Acme\n12  -');
  });

  it('says (none) for no rows', () => {
    expect(table(['ID'], [])).toBe('(none)');
  });

  it("prints the API's JSON with --json, else the lines for people", () => {
    const written: string[] = [];
    new Output(true, (text) => void written.push(text)).result({ a: 1 }, () => 'for people');
    new Output(false, (text) => void written.push(text)).result({ a: 1 }, () => 'for people');
    expect(written).toEqual(['{\n  "a": 1\n}\n', 'for people\n']);
  });
});
