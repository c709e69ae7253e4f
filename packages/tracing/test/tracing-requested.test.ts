import { startTracing, tracingOn, tracingRequested } from '../src';

describe('tracingRequested', () => {
  it.each<[string, NodeJS.ProcessEnv, boolean]>([
    ['nothing set', {}, false],
    ['only a service name', { OTEL_SERVICE_NAME: 'push' }, false],
    ['an OTLP endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    ['a traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, true],
    ['an endpoint of blanks', { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    ['the otlp exporter', { OTEL_TRACES_EXPORTER: 'otlp' }, true],
    ['the console exporter', { OTEL_TRACES_EXPORTER: 'Console' }, true],
    ['exporter none, with an endpoint', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, false],
    ['the SDK disabled', { OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, false],
    ['the SDK not disabled', { OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }, true],
  ])('%s', (_what, env, expected) => {
    expect(tracingRequested(env)).toBe(expected);
  });
});

describe('startTracing', () => {
  it('starts nothing when OTEL_* asks for no traces', () => {
    expect(startTracing({ serviceName: 'push', env: {} })).toBeNull();
    expect(tracingOn()).toBe(false);
  });

  it('refuses an exporter or protocol it does not have, naming the setting', () => {
    expect(() => startTracing({ serviceName: 'push', env: { OTEL_TRACES_EXPORTER: 'zipkin' } })).toThrow(/OTEL_TRACES_EXPORTER: zipkin/);
    expect(tracingOn()).toBe(false);
    expect(() => startTracing({ serviceName: 'push', env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: grpc/,
    );
    expect(tracingOn()).toBe(false);
  });

  it('is on between start and stop when OTEL_* asks for traces', async () => {
    const tracing = startTracing({ serviceName: 'push', env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } });
    expect(tracing).not.toBeNull();
    expect(tracingOn()).toBe(true);
    await tracing!.stop();
    expect(tracingOn()).toBe(false);
  });
});
