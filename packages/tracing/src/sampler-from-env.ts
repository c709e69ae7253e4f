import { diag } from '@opentelemetry/api';
import { getNumberFromEnv, getStringFromEnv } from '@opentelemetry/core';
import type { Sampler } from '@opentelemetry/sdk-trace';

type SdkTrace = typeof import('@opentelemetry/sdk-trace');

const defaultSampler = 'parentbased_always_on';
const defaultRatio = 1;

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the specification names and defaults
 * them (and as SDK 2 read them: the same values, defaults and diag errors). SDK 3 reads no
 * environment for its tracer any more, so this is ours; the samplers are still the SDK's.
 */
export function samplerFromEnv(): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = require('@opentelemetry/sdk-trace') as SdkTrace;
  const samplers: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    traceidratio: () => new TraceIdRatioBasedSampler(ratioFromEnv()),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioFromEnv()) }),
  };
  const name = getStringFromEnv('OTEL_TRACES_SAMPLER') ?? defaultSampler;
  const sampler = Object.hasOwn(samplers, name) ? samplers[name]! : undefined;
  if (sampler) return sampler();
  diag.error(`OTEL_TRACES_SAMPLER value "${name}" invalid, defaulting to "${defaultSampler}".`);
  return samplers[defaultSampler]!();
}

function ratioFromEnv(): number {
  const ratio = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
  if (ratio == null) {
    diag.error(`OTEL_TRACES_SAMPLER_ARG is blank, defaulting to ${defaultRatio}.`);
    return defaultRatio;
  }
  if (ratio < 0 || ratio > 1) {
    diag.error(`OTEL_TRACES_SAMPLER_ARG=${ratio} was given, but it is out of range ([0..1]), defaulting to ${defaultRatio}.`);
    return defaultRatio;
  }
  return ratio;
}
