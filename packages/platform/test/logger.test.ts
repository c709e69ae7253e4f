import { Writable } from 'node:stream';
import pino from 'pino';
import { redactedPaths, withRequestId } from '../src/logger';

function captureLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ redact: { paths: redactedPaths, censor: '[redacted]' } }, stream);
  return { logger, lines };
}

describe('logger', () => {
  it('redacts authorization headers, tokens, secrets and file bytes', () => {
    const { logger, lines } = captureLogger();
    logger.info({
      req: { headers: { authorization: 'Basic c2VjcmV0Ong=' } },
      body: { api_token: 'tok-123', device_secret: 'sec-456', file_data: 'QUJD' },
      token: 'tok-789',
    });
    const line = lines.join('');
    for (const secret of ['c2VjcmV0Ong=', 'tok-123', 'sec-456', 'QUJD', 'tok-789']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('stamps the request id on every line of a request logger', () => {
    const { logger, lines } = captureLogger();
    const log = withRequestId(logger, 'req-42');
    log.info('one');
    log.child({ step: 'two' }).warn('two');
    expect(lines.map((l) => JSON.parse(l).requestId)).toEqual(['req-42', 'req-42']);
  });
});
