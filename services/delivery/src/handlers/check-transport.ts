import type { Envelope } from '@formcast/contracts';
import { AppError } from '@formcast/platform';
import type { DestinationTransportSettings } from '../domain/records';
import type { DeliveryDeps } from './deps';

/**
 * A transport may be saved when it can work: an http_transport's address is one the
 * address policy allows (checked again at every connection), a dispatch_transport's
 * template exists in the organization.
 */
export async function checkTransport(deps: DeliveryDeps, command: Envelope, orgId: number, transport: DestinationTransportSettings): Promise<void> {
  if (transport.type === 'http_transport') {
    const refusal = await deps.uriRefusal(transport.parameters.uri);
    if (refusal) throw new AppError('invalid', `http_transport.uri: ${refusal}`);
  } else {
    await deps.forms.requireTemplate(orgId, transport.parameters.form_namespace, command.requestId);
  }
}
