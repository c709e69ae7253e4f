import type { DestinationTransportSettings } from '../domain/records';
import type { SecretCipher } from './secret-cipher';

/** A transport as stored: an email transport's SMTP `password` sealed as signing secrets are (DELIVERY_SECRETS_KEY). */
export function sealTransport(cipher: SecretCipher, transport: DestinationTransportSettings): DestinationTransportSettings {
  if (transport.type !== 'email_transport' || !transport.parameters.password) return transport;
  return { ...transport, parameters: { ...transport.parameters, password: cipher.seal(transport.parameters.password) } };
}

export function openTransport(cipher: SecretCipher, stored: DestinationTransportSettings): DestinationTransportSettings {
  if (stored.type !== 'email_transport' || !stored.parameters.password) return stored;
  return { ...stored, parameters: { ...stored.parameters, password: cipher.open(stored.parameters.password) } };
}
