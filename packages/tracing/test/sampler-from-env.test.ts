import { diag, DiagLogLevel } from '@opentelemetry/api';
import { samplerFromEnv } from '../src/sampler-from-env';

/** The sampler OTEL_TRACES_SAMPLER(_ARG) set to `env` gives, by the SDK's own description of it, and the diag errors logged. */
function samplerWith(env: Record<string, string>): { sampler: string; errors: string[] } {
  const saved = { ...process.env };
  delete process.env.OTEL_TRACES_SAMPLER;
  delete process.env.OTEL_TRACES_SAMPLER_ARG;
  Object.assign(process.env, env);
  const errors: string[] = [];
  diag.setLogger({ error: (message) => errors.push(message), warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.ERROR);
  try {
    return { sampler: String(samplerFromEnv()), errors };
  } finally {
    diag.disable();
    process.env = saved;
  }
}

const parentBased = (root: string) =>
  `ParentBased{root=${root}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}`;

describe('OTEL_TRACES_SAMPLER, read as the specification says (SDK 3 no longer reads it)', () => {
  it.each([
    [{}, parentBased('AlwaysOnSampler')],
    [{ OTEL_TRACES_SAMPLER: 'always_on' }, 'AlwaysOnSampler'],
    [{ OTEL_TRACES_SAMPLER: 'always_off' }, 'AlwaysOffSampler'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, parentBased('AlwaysOnSampler')],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, parentBased('AlwaysOffSampler')],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, 'TraceIdRatioBased{0.25}'],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' }, parentBased('TraceIdRatioBased{0.5}')],
  ])('%j gives %s', (env, expected) => {
    expect(samplerWith(env)).toEqual({ sampler: expected, errors: [] });
  });

  it('falls back on parentbased_always_on for a name it does not know, and says so', () => {
    const { sampler, errors } = samplerWith({ OTEL_TRACES_SAMPLER: 'jaeger_remote' });
    expect(sampler).toBe(parentBased('AlwaysOnSampler'));
    expect(errors).toEqual(['OTEL_TRACES_SAMPLER value "jaeger_remote" invalid, defaulting to "parentbased_always_on".']);
  });

  it.each([
    [{}, 'OTEL_TRACES_SAMPLER_ARG is blank, defaulting to 1.'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG=1.5 was given, but it is out of range ([0..1]), defaulting to 1.'],
    [{ OTEL_TRACES_SAMPLER_ARG: '-0.1' }, 'OTEL_TRACES_SAMPLER_ARG=-0.1 was given, but it is out of range ([0..1]), defaulting to 1.'],
  ])('takes a ratio of 1 for the ratio sampler when the argument is %j, and says so', (arg, error) => {
    expect(samplerWith({ OTEL_TRACES_SAMPLER: 'traceidratio', ...arg })).toEqual({ sampler: 'TraceIdRatioBased{1}', errors: [error] });
  });
});
