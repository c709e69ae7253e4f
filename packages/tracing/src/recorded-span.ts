import { diag, SpanStatusCode, type Attributes, type AttributeValue, type Exception, type HrTime, type Link, type Span, type SpanContext, type SpanKind, type SpanStatus, type TimeInput } from '@opentelemetry/api';
import { hrTime, hrTimeDuration, isAttributeValue, millisToHrTime, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanLimits, TimedEvent } from '@opentelemetry/sdk-trace';

/** What every span of a tracer shares: handed to each by reference, nothing copied a span. */
export interface SpanSettings {
  resource: Resource;
  scope: InstrumentationScope;
  limits: Required<Pick<SpanLimits, 'attributeCountLimit' | 'attributeValueLengthLimit' | 'eventCountLimit' | 'attributePerEventCountLimit'>>;
  /** Called once with each span as it ends (the span processors'). */
  ended(span: RecordedSpan): void;
}

const noLinks: Link[] = [];

/**
 * A sampled span, recorded as the SDK's span records it (its attribute and event limits,
 * status rules, exception events, times from the performance clock), in one object that is
 * both the API's Span and the ReadableSpan the span processors read: no per-span copies of
 * limits, resource or attributes, no tracer metrics. Links are not used by Formcast: none.
 */
export class RecordedSpan implements Span, ReadableSpan {
  readonly attributes: Attributes = {};
  readonly events: TimedEvent[] = [];
  readonly links = noLinks;
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  duration: HrTime = [-1, -1];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  private attributeCount = 0;

  constructor(
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    public name: string,
    readonly kind: SpanKind,
    attributes: Attributes | undefined,
    private readonly settings: SpanSettings,
  ) {
    this.startTime = hrTime();
    if (attributes) this.setAttributes(attributes);
  }

  get resource(): Resource {
    return this.settings.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.settings.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (value === undefined || value === null || this.ended || key.length === 0 || !isAttributeValue(value)) return this;
    const isNew = !Object.prototype.hasOwnProperty.call(this.attributes, key);
    if (isNew && this.attributeCount >= this.settings.limits.attributeCountLimit) {
      this.droppedAttributesCount += 1;
      return this;
    }
    this.attributes[key] = this.truncated(value);
    if (isNew) this.attributeCount += 1;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) if (Object.prototype.hasOwnProperty.call(attributes, key)) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const { eventCountLimit, attributePerEventCountLimit } = this.settings.limits;
    if (eventCountLimit === 0) {
      this.droppedEventsCount += 1;
      return this;
    }
    if (this.events.length >= eventCountLimit) {
      this.events.shift();
      this.droppedEventsCount += 1;
    }
    const given = isTime(attributesOrTime) ? undefined : attributesOrTime;
    const at = isTime(attributesOrTime) ? attributesOrTime : time;
    const attributes: Attributes = {};
    let kept = 0;
    let droppedAttributesCount = 0;
    for (const key in given) {
      const value = given[key];
      if (!Object.prototype.hasOwnProperty.call(given, key) || key.length === 0 || !isAttributeValue(value)) continue;
      if (kept >= attributePerEventCountLimit) droppedAttributesCount += 1;
      else {
        attributes[key] = this.truncated(value);
        kept += 1;
      }
    }
    this.events.push({ name, attributes, time: at === undefined ? hrTime() : timeOf(at), droppedAttributesCount });
    return this;
  }

  addLink(_link: Link): this {
    return this;
  }

  addLinks(_links: Link[]): this {
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status = status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  /** As the SDK records one: an `exception` event with its type (code, else name), message and stack. */
  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      if (exception.code) attributes['exception.type'] = exception.code.toString();
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] || attributes['exception.message']) this.addEvent('exception', attributes, time);
  }

  end(endTime?: TimeInput): void {
    if (this.ended) {
      diag.error(`${this.name} ${this.context.traceId}-${this.context.spanId} - You can only call end() on a span once.`);
      return;
    }
    this.endTime = endTime === undefined ? hrTime() : timeOf(endTime);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    if (this.duration[0] < 0) {
      this.endTime = [this.startTime[0], this.startTime[1]];
      this.duration = [0, 0];
    }
    this.ended = true;
    this.settings.ended(this);
  }

  private truncated(value: AttributeValue): AttributeValue {
    const limit = this.settings.limits.attributeValueLengthLimit;
    if (limit === Infinity || limit < 0) return value;
    if (typeof value === 'string') return value.length > limit ? value.slice(0, limit) : value;
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' && item.length > limit ? item.slice(0, limit) : item)) as AttributeValue;
    return value;
  }
}

function isTime(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number');
}

function timeOf(time: TimeInput): HrTime {
  if (Array.isArray(time)) return time as HrTime;
  return millisToHrTime(time instanceof Date ? time.getTime() : time);
}
