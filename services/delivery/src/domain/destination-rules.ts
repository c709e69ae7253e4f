import type { CreateDestinationPayload, UpdateDestinationPayload } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { Destination, DestinationChange, DestinationTransportSettings, NewDestination } from './records';
import { newSigningSecrets } from './signing-secrets';

/** The transport of a create body (the contract requires the chosen one's parameters). */
function chosenTransport(input: CreateDestinationPayload): DestinationTransportSettings {
  if (input.destination.transport_selection === 'dispatch_transport') {
    return { type: 'dispatch_transport', parameters: input.dispatch_transport! };
  }
  return { type: 'http_transport', parameters: input.http_transport! };
}

export function newDestination(orgId: number, input: CreateDestinationPayload): NewDestination {
  return {
    orgId,
    formId: input.formId,
    description: input.destination.description,
    format: input.destination.format_selection,
    transport: chosenTransport(input),
    secrets: newSigningSecrets(),
  };
}

const fixedMessage = 'cannot change: create a new destination instead';

/**
 * What an update body changes in `destination`. The format and the transport stay as
 * they are (the real product's rule): naming another is refused, and so are parameters of
 * a format or transport the destination does not use.
 */
export function destinationChange(destination: Destination, input: UpdateDestinationPayload): DestinationChange {
  const { format_selection: format, transport_selection: transport, description, active } = input.destination;
  if (format !== undefined && format !== destination.format) throw new AppError('invalid', `destination.format_selection: ${fixedMessage}`);
  if (transport !== undefined && transport !== destination.transport.type) {
    throw new AppError('invalid', `destination.transport_selection: ${fixedMessage}`);
  }
  for (const other of ['json_format', 'xml_format'] as const) {
    if (input[other] !== undefined && other !== destination.format) {
      throw new AppError('invalid', `${other}: this destination uses ${destination.format}, which ${fixedMessage}`);
    }
  }
  for (const other of ['http_transport', 'dispatch_transport'] as const) {
    if (input[other] !== undefined && other !== destination.transport.type) {
      throw new AppError('invalid', `${other}: this destination uses ${destination.transport.type}, which ${fixedMessage}`);
    }
  }
  const change: DestinationChange = {};
  if (description !== undefined) change.description = description;
  if (active !== undefined) change.active = active;
  if (input.http_transport) change.transport = { type: 'http_transport', parameters: input.http_transport };
  if (input.dispatch_transport) change.transport = { type: 'dispatch_transport', parameters: input.dispatch_transport };
  return change;
}
