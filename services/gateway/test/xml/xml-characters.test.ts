import { XMLValidator } from 'fast-xml-parser';
import type { OutstandingOneshotView } from '@formcast/contracts';
import { renderOutstandingXml } from '../../src/render/oneshots-xml';
import { outstandingXmlWriter } from '../../src/render/outstanding-stream';

// The characters themselves are @formcast/xml-writing's (its tests); here, the gateway's hand-written stream.
describe('XML answers with text stored before it was refused', () => {
  const stored = `bell\u0007 nul\u0000 ${String.fromCharCode(0xfffe)} lone\ud800 <&> ok😊`;
  const oneshot: OutstandingOneshotView = {
    id: 1,
    device_id: 2,
    organization_id: 3,
    namespace: 'http://example.com/xforms/a',
    name: stored,
    description: stored,
  } as OutstandingOneshotView;

  it('the streamed organization listing writes them as buildXml does, byte for byte', () => {
    const writer = outstandingXmlWriter();
    const streamed = writer.open([oneshot]) + writer.items([oneshot]) + writer.close();
    expect(XMLValidator.validate(streamed)).toBe(true);
    expect(streamed).toBe(renderOutstandingXml([oneshot]));
  });
});
