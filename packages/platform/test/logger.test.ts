import { Writable } from 'node:stream';
import pino from 'pino';
import { openSpan, recordSpansInMemory, SpanKind } from '@formcast/tracing';
import { createLogger, redactedPaths, traceIdMixin, withoutRedaction, withRequestId } from '../src/logger';

function captureLogger(options: pino.LoggerOptions = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ redact: { paths: redactedPaths, censor: '[redacted]' }, ...options }, stream);
  return { logger, lines };
}

describe('logger', () => {
  it('redacts authorization headers, tokens, secrets and file bytes', () => {
    const { logger, lines } = captureLogger();
    logger.info({
      req: { headers: { authorization: 'Basic c2VjcmV0Ong=' } },
      body: { api_token: 'tok-123', device_secret: 'sec-456', file_data: 'QUJD', enrollment_code: 'enr-321' },
      token: 'tok-789',
      enrollment_code: 'enr-654',
    });
    const line = lines.join('');
    for (const secret of ['c2VjcmV0Ong=', 'tok-123', 'sec-456', 'QUJD', 'tok-789', 'enr-321', 'enr-654']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('stamps the request id on every line of a request logger', () => {
    const { logger, lines } = captureLogger();
    const log = withRequestId(logger, 'req-42');
    log.info('one');
    log.child({ step: 'two' }).warn('two');
    expect(lines.map((l) => JSON.parse(l).requestId)).toEqual(['req-42', 'req-42']);
  });

  it('writes an access line without redaction exactly as the request logger writes it', () => {
    const { logger, lines } = captureLogger({ name: 'formcast', base: { pid: 4242 }, timestamp: () => ',"time":1' });
    const access = withoutRedaction(logger);
    const fields = [
      { method: 'POST', path: '/oneshots.json', status: 202, ms: 1.7 },
      { method: 'GET', path: '/nope/%22quoted%22/\\back', status: 404, ms: 0 },
      { method: 'DELETE', path: '/clients/Android_é/oneshots/1', status: 500, ms: 12345.6 },
      { method: 'GET', path: `/${'long'.repeat(40)}`, status: 200, ms: 0.1 },
    ];
    for (const [i, line] of fields.entries()) {
      const requestId = i % 2 ? `req-${i}` : 'c0a8f5c2-1b7e-4f0e-9a51-7d2f3e4b5a60';
      withRequestId(logger, requestId).info(line, 'request');
      access.info({ requestId, ...line }, 'request');
    }
    for (let i = 0; i < lines.length; i += 2) expect(lines[i + 1]).toBe(lines[i]);
    expect(JSON.parse(lines[0]!)).toEqual({ level: 30, time: 1, pid: 4242, name: 'formcast', requestId: 'c0a8f5c2-1b7e-4f0e-9a51-7d2f3e4b5a60', method: 'POST', path: '/oneshots.json', status: 202, ms: 1.7, msg: 'request' });
  });

  it('keeps following the level of the logger it came from', () => {
    const { logger, lines } = captureLogger();
    const access = withoutRedaction(logger);
    logger.level = 'warn';
    access.info('dropped');
    logger.level = 'info';
    access.info('kept');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['kept']);
  });

  it('is meant for known fields only: it does not redact', () => {
    const { logger, lines } = captureLogger();
    withoutRedaction(logger).info({ token: 'tok-1' });
    logger.info({ token: 'tok-1' });
    expect(lines[0]).toContain('tok-1');
    expect(lines[1]).not.toContain('tok-1');
  });

  describe('trace ids', () => {
    it('adds no mixin while tracing is off and OTEL_* asks for none', () => {
      expect((createLogger() as unknown as Record<symbol, unknown>)[pino.symbols.mixinSym]).toBeUndefined();
    });

    it('stamps the active span’s trace id on the lines of a traced request, the access line included, and none outside a span', async () => {
      const recorded = recordSpansInMemory();
      try {
        expect((createLogger() as unknown as Record<symbol, unknown>)[pino.symbols.mixinSym]).toBe(traceIdMixin);
        const { logger, lines } = captureLogger({ mixin: traceIdMixin });
        const request = openSpan('GET /things/:id', SpanKind.SERVER)!;
        request.run(() => {
          withRequestId(logger, 'req-1').info('inside');
          withoutRedaction(logger).info({ method: 'GET', status: 200 }, 'request');
        });
        request.end();
        logger.info('outside');
        const traceId = recorded.spans()[0]!.spanContext().traceId;
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(lines.map((line) => JSON.parse(line).traceId)).toEqual([traceId, traceId, undefined]);
        expect(JSON.parse(lines[0]!).requestId).toBe('req-1');
      } finally {
        await recorded.stop();
      }
    });
  });
});
