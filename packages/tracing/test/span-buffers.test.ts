import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ProtobufSpanBuffer } from '../src/export/span-buffers';
import { decodeSpanRecords } from './support/otlp-protobuf';

function span(name: string, attributes: () => ReadableSpan['attributes']): ReadableSpan {
  const context = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), traceFlags: 1 };
  return {
    name,
    kind: 0,
    spanContext: () => context,
    startTime: [1_700_000_000, 5],
    endTime: [1_700_000_001, 6],
    get attributes() {
      return attributes();
    },
    events: [],
    links: [],
    status: { code: 0 },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  } as unknown as ReadableSpan;
}

describe('the protobuf span buffer', () => {
  it('drops a span it cannot encode, whole, and keeps the others readable', () => {
    const buffer = new ProtobufSpanBuffer();
    buffer.add(span('first', () => ({ n: 1 })));
    buffer.add(
      span('broken', () => {
        throw new Error('no attributes');
      }),
    );
    buffer.add(span('last', () => ({ n: 2 })));
    expect(buffer.count).toBe(2);
    const decoded = decodeSpanRecords(buffer.take());
    expect(decoded.spans.map((s: { name: string }) => s.name)).toEqual(['first', 'last']);
    expect(decoded.spans[0].startTimeUnixNano).toBe('1700000000000000005');
    expect(decoded.spans[1].endTimeUnixNano).toBe('1700000001000000006');
    expect(buffer.count).toBe(0);
  });
});
