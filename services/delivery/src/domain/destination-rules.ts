import type { CreateDestinationPayload, UpdateDestinationPayload } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { Destination, DestinationChange, DestinationTransportSettings, FormatParameters, NewDestination } from './records';
import { newSigningSecrets } from './signing-secrets';
import { checkTemplate } from './templates';

/** The transport of a create body (the contract requires the chosen one's parameters). */
function chosenTransport(input: CreateDestinationPayload): DestinationTransportSettings {
  switch (input.destination.transport_selection) {
    case 'dispatch_transport':
      return { type: 'dispatch_transport', parameters: input.dispatch_transport! };
    case 'email_transport':
      return { type: 'email_transport', parameters: input.email_transport! };
    default:
      return { type: 'http_transport', parameters: input.http_transport! };
  }
}

/** A format's parameters from a body: a document format's as given (none: all unset), json and xml none. */
function formatParametersOf(format: Destination['format'], input: CreateDestinationPayload | UpdateDestinationPayload): FormatParameters | undefined {
  if (format === 'text_format' || format === 'pdf_format' || format === 'word_format') return input[format];
  return input[format] === undefined ? undefined : {};
}

/** Every template of a format and a transport parses (400 naming the field otherwise). */
export function checkTemplates(format: Destination['format'], parameters: FormatParameters | undefined, transport: DestinationTransportSettings | undefined): void {
  if (parameters && format === 'text_format' && 'template' in parameters) checkTemplate('text_format.template', parameters.template);
  if (parameters && 'file_name_template' in parameters) checkTemplate(`${format}.file_name_template`, parameters.file_name_template);
  if (transport?.type === 'email_transport') {
    checkTemplate('email_transport.subject_template', transport.parameters.subject_template);
    checkTemplate('email_transport.body_template', transport.parameters.body_template);
  }
}

export function newDestination(orgId: number, input: CreateDestinationPayload): NewDestination {
  return {
    orgId,
    formId: input.formId,
    description: input.destination.description,
    format: input.destination.format_selection,
    formatParameters: formatParametersOf(input.destination.format_selection, input) ?? {},
    transport: chosenTransport(input),
    secrets: newSigningSecrets(),
  };
}

/** What a show answers in `password`: never the password itself. */
export const passwordMask = '********';

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
  for (const other of ['json_format', 'xml_format', 'text_format', 'pdf_format', 'word_format'] as const) {
    if (input[other] !== undefined && other !== destination.format) {
      throw new AppError('invalid', `${other}: this destination uses ${destination.format}, which ${fixedMessage}`);
    }
  }
  for (const other of ['http_transport', 'dispatch_transport', 'email_transport'] as const) {
    if (input[other] !== undefined && other !== destination.transport.type) {
      throw new AppError('invalid', `${other}: this destination uses ${destination.transport.type}, which ${fixedMessage}`);
    }
  }
  const change: DestinationChange = {};
  if (description !== undefined) change.description = description;
  if (active !== undefined) change.active = active;
  if (input.http_transport) change.transport = { type: 'http_transport', parameters: input.http_transport };
  if (input.dispatch_transport) change.transport = { type: 'dispatch_transport', parameters: input.dispatch_transport };
  if (input.email_transport) {
    // A password left out, or the mask a show answered, keeps the one set.
    const kept = destination.transport.type === 'email_transport' ? destination.transport.parameters.password : undefined;
    const password = input.email_transport.password;
    const keep = password === undefined || password === passwordMask;
    change.transport = { type: 'email_transport', parameters: { ...input.email_transport, password: keep ? kept : password } };
  }
  const formatParameters = formatParametersOf(destination.format, input);
  if (formatParameters !== undefined && (destination.format === 'text_format' || destination.format === 'pdf_format' || destination.format === 'word_format')) {
    change.formatParameters = formatParameters;
  }
  return change;
}
