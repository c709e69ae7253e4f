import type { DispatchTransportParameters } from '@formcast/contracts';
import type { SubmissionTarget } from './records';

/** A submission target's transport, from its stored type and (for a dispatch only) its parameters' JSON text. */
export function targetTransport(type: string, parameters: string | null | undefined): SubmissionTarget['transport'] {
  if (type !== 'dispatch_transport') return { type: type as 'http_transport' | 'email_transport' };
  return { type, parameters: JSON.parse(parameters!) as DispatchTransportParameters };
}
