import { AppError } from '@formcast/platform';
import { definitionToXforms } from '../../src/xforms/definition-to-xforms';
import { xformsToDefinition } from '../../src/xforms/xforms-to-definition';

const head = `<h:html xmlns='http://www.w3.org/2002/xforms' xmlns:dm='http://www.devicemagic.com/XMLSchemaDataTypes' xmlns:h='http://www.w3.org/1999/xhtml' xmlns:xsd='http://www.w3.org/2001/XMLSchema'>`;

/** An XForms document of `instance` (the instance root's content), `binds` and `body`. */
const xforms = (instance: string, body: string, binds = '', title = '<h:title>T</h:title>') =>
  `${head}<h:head>${title}<model><instance xmlns='http://forms.example.com/t'><data>${instance}</data></instance>${binds}</model></h:head><h:body>${body}</h:body></h:html>`;

function refusal(text: string): string {
  try {
    xformsToDefinition(text);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('XForms → form definition (form.md: POST/PUT a definition as <h:html>)', () => {
  it('reads form.md\'s example: title, namespace, one text question per input, in order', () => {
    const definition = xformsToDefinition(xforms('<alpha/><bravo/>', "<input ref='alpha'><label>Alpha</label></input><input ref='bravo'><label>Bravo</label></input>"));
    expect(definition).toEqual({
      type: 'root',
      title: 'T',
      namespace: 'http://forms.example.com/t',
      children: [
        { identifier: 'alpha', type: 'text', title: 'Alpha' },
        { identifier: 'bravo', type: 'text', title: 'Bravo' },
      ],
    });
  });

  it('reads types from controls and binds (relative or absolute), required, hints, choices, groups, repeats and dm: attributes', () => {
    const definition = xformsToDefinition(
      xforms(
        '<n/><when/><pick/><many/><sub><inner/></sub><rows><cell/></rows><secret/><long/>',
        "<input ref='n' dm:autoIdentifier='true'><label>N</label><hint>a number</hint></input><input ref='when'/>" +
          "<select1 ref='pick'><item><label>Yes</label><value>y</value></item></select1><select ref='many'><item><value>a</value></item></select>" +
          "<group ref='sub'><label>Sub</label><input ref='inner'/></group><repeat nodeset='rows'><input ref='cell'/></repeat><secret ref='secret'/><textarea ref='long'/>",
        "<bind nodeset='/data/n' type='xsd:integer' required='true()'/><bind nodeset='when' type='xsd:dateTime'/><bind nodeset='/data/sub/inner' type='dm:sketch'/>",
      ),
    );
    expect(definition['children']).toEqual([
      { identifier: 'n', type: 'integer', autoIdentifier: true, required: true, title: 'N', hint: 'a number' },
      { identifier: 'when', type: 'datetime' },
      { identifier: 'pick', type: 'select1', options: [{ title: 'Yes', value: 'y' }] },
      { identifier: 'many', type: 'select', options: [{ value: 'a' }] },
      { identifier: 'sub', type: 'subform', title: 'Sub', children: [{ identifier: 'inner', type: 'sketch' }] },
      { identifier: 'rows', type: 'group', children: [{ identifier: 'cell', type: 'text' }] },
      { identifier: 'secret', type: 'password' },
      { identifier: 'long', type: 'textarea' },
    ]);
  });

  it.each([
    ['another root', '<form/>', /<form>: the root element must be <h:html>/],
    ['a default value in the instance', xforms('<alpha>7</alpha>', "<input ref='alpha'/>"), /<alpha> in the instance: a default value is not supported/],
    ['an instance element with no control', xforms('<alpha/><bravo/>', "<input ref='alpha'/>"), /<bravo> in the instance: no control in <h:body> refers to it/],
    ['a control with no instance element', xforms('<alpha/>', "<input ref='alpha'/><input ref='charlie'/>"), /<input ref="charlie">: the instance has no <charlie> here/],
    ['an unknown control', xforms('<alpha/>', "<upload ref='alpha'/>"), /<upload ref="alpha">: no question type is written this way/],
    ['an unknown attribute', xforms('<alpha/>', "<input ref='alpha' appearance='minimal'/>"), /<input ref="alpha">: the attribute appearance has no place/],
    ['an unknown bind type', xforms('<alpha/>', "<input ref='alpha'/>", "<bind nodeset='alpha' type='xsd:base64Binary'/>"), /type="xsd:base64Binary" is no question type/],
    ['a bind constraint', xforms('<alpha/>', "<input ref='alpha'/>", "<bind nodeset='alpha' constraint='. &gt; 3'/>"), /<bind nodeset="alpha">: the attribute constraint has no place/],
    ['a bind for no question', xforms('<alpha/>', "<input ref='alpha'/>", "<bind nodeset='zulu' type='xsd:integer'/>"), /<bind nodeset="zulu">: no question of the body has this path/],
    ['another head element', xforms('<alpha/>', "<input ref='alpha'/>", '', '<h:title>T</h:title><h:meta/>'), /<h:meta>: only <h:title> and <model> belong in <h:head>/],
    ['a model submission', xforms('<alpha/>', "<input ref='alpha'/>", '<submission/>'), /<submission>: only <instance> and <bind> belong in <model>/],
    ['no title', xforms('<alpha/>', "<input ref='alpha'/>", '', ''), /<h:head>: one <h:title> is needed, 0 given/],
    ['text in the body', xforms('<alpha/>', "stray<input ref='alpha'/>"), /<h:body>: text "stray" outside any element/],
    ['a label with markup', xforms('<alpha/>', "<input ref='alpha'><label><b>A</b></label></input>"), /<label>: <b> inside it is not supported/],
    ['an element in a single question', xforms('<alpha><x/></alpha>', "<input ref='alpha'/>"), /<alpha> in the instance: it holds elements/],
    ['a dm: attribute for an XForms term', xforms('<alpha/>', "<input ref='alpha' dm:type='integer'/>"), /the attribute dm:type names what XForms writes in its own terms/],
    ['a DOCTYPE', `<!DOCTYPE h:html [<!ENTITY x "y">]>${xforms('<alpha/>', "<input ref='alpha'/>")}`, /DOCTYPE/],
  ])('refuses %s, naming it (400)', (_what, text, message) => {
    expect(refusal(text)).toMatch(message);
  });
});

describe('form definition → XForms (form.md: GET the definition as <h:html>)', () => {
  const definition = {
    type: 'root',
    title: 'R & D',
    namespace: 'http://forms.example.com/rd',
    description: 'Lab',
    version: '1.01',
    group: 'Default',
    children: [
      { identifier: 'n', title: 'N', type: 'integer', required: true, autoIdentifier: true },
      { identifier: 'pick', type: 'select1', options: [{ value: 'y', title: 'Yes' }] },
      { identifier: 'sub', type: 'subform', title: 'Sub', children: [{ identifier: 'when', type: 'date', hint: 'day' }] },
      { identifier: 'rows', type: 'group', children: [{ identifier: 'note', type: 'textarea' }] },
    ],
  };

  it('writes <h:html> with the instance in the form\'s namespace, binds and controls in order', () => {
    const xml = definitionToXforms(definition);
    expect(xml).toContain('<h:title>R &amp; D</h:title>');
    expect(xml).toContain('<instance xmlns="http://forms.example.com/rd">');
    expect(xml).toContain('<bind nodeset="/inputs/n" type="xsd:integer" required="true()"/>');
    expect(xml).toContain('<input ref="n" dm:autoIdentifier="true">');
    expect(xml.indexOf('<select1 ref="pick">')).toBeLessThan(xml.indexOf('<group ref="sub">'));
    expect(xml).toContain('<repeat nodeset="rows">');
  });

  it('reads back as the same definition (the form\'s version and group are not part of it)', () => {
    const { version: _version, group: _group, ...rest } = definition;
    expect(xformsToDefinition(definitionToXforms(definition))).toEqual(rest);
  });

  it.each([
    ['a list under another key', { ...definition, children: [{ identifier: 'a', type: 'text', validations: [1] }] }, /children\[0\]\.validations: a list, which XForms cannot show/],
    ['a structure at the top', { ...definition, layout: { columns: 2 } }, /definition\.layout: a structure, which XForms cannot show/],
    ['an option with other keys', { ...definition, children: [{ identifier: 'a', type: 'select1', options: [{ value: 'v', color: 'red' }] }] }, /options\[0\]\.color: an option key other than value and title/],
  ])('refuses %s with 422, naming it', (_what, input, message) => {
    expect(() => definitionToXforms(input)).toThrow(message);
    try {
      definitionToXforms(input);
    } catch (error) {
      expect((error as AppError).code).toBe('unprocessable');
    }
  });
});
