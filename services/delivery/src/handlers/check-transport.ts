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
  } else if (transport.type === 'email_transport') {
    const { via_custom_smtp: custom, smtp_address: host } = transport.parameters;
    if (!custom && !deps.defaultSmtp) {
      throw new AppError('invalid', 'email_transport.via_custom_smtp: this deployment has no SMTP server of its own (DELIVERY_SMTP_URL): give smtp_address with via_custom_smtp');
    }
    if (custom && host) {
      const refusal = await deps.uriRefusal(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`);
      if (refusal) throw new AppError('invalid', `email_transport.smtp_address: ${refusal}`);
    }
  } else {
    await deps.forms.requireTemplate(orgId, transport.parameters.form_namespace, command.requestId);
  }
}
