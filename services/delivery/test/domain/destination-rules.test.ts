import { createDestinationPayload, updateDestinationPayload } from '@formcast/contracts';
import { isAppError } from '@formcast/platform';
import { destinationChange, newDestination } from '../../src/domain/destination-rules';
import type { Destination } from '../../src/domain/records';
import { toDestinationDetailView, toDestinationView, toDestinationWithSecretView } from '../../src/domain/views';

const created = newDestination(
  3,
  createDestinationPayload.parse({
    formId: 9,
    destination: { description: 'CRM', format_selection: 'json_format', transport_selection: 'http_transport' },
    http_transport: { uri: 'https://crm.example.com/hook' },
  }),
);

const destination: Destination = {
  ...created,
  id: 4,
  active: true,
  deactivatedReason: null,
  deactivatedAt: null,
  failingSince: null,
  createdAt: '2026-05-04T09:00:00.000Z',
  updatedAt: '2026-05-04T09:00:00.000Z',
  formatUpdatedAt: '2026-05-04T09:00:00.000Z',
  transportUpdatedAt: '2026-05-04T09:00:00.000Z',
};

const change = (body: object) => destinationChange(destination, updateDestinationPayload.parse({ formId: 9, destinationId: 4, ...body }));

function invalidMessage(act: () => unknown): string {
  try {
    act();
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid') return error.message;
    throw error;
  }
  throw new Error('expected AppError(invalid)');
}

describe('destination rules', () => {
  it('makes a destination from a create body, with a signing secret of its own', () => {
    expect(created).toMatchObject({
      orgId: 3,
      formId: 9,
      description: 'CRM',
      format: 'json_format',
      transport: { type: 'http_transport', parameters: { uri: 'https://crm.example.com/hook' } },
    });
    expect(created.secrets.current).toMatch(/^whsec_/);
    expect(newDestination(3, createDestinationPayload.parse({ formId: 9, destination: { format_selection: 'json_format', transport_selection: 'http_transport' }, http_transport: { uri: 'https://a.example/' } })).secrets.current).not.toBe(created.secrets.current);
  });

  it('changes the description, active and the parameters of its own transport', () => {
    expect(change({ destination: { description: null, active: false } })).toEqual({ description: null, active: false });
    expect(change({ http_transport: { uri: 'https://crm.example.com/v2', headers: { 'X-Key': 'k' } }, json_format: {} })).toEqual({
      transport: { type: 'http_transport', parameters: { uri: 'https://crm.example.com/v2', headers: { 'X-Key': 'k' } } },
    });
    expect(change({ destination: { format_selection: 'json_format', transport_selection: 'http_transport' } })).toEqual({});
  });

  it('never changes the format or the transport', () => {
    expect(invalidMessage(() => change({ destination: { format_selection: 'xml_format' } }))).toBe(
      'destination.format_selection: cannot change: create a new destination instead',
    );
    expect(invalidMessage(() => change({ destination: { transport_selection: 'dispatch_transport' } }))).toMatch(/^destination.transport_selection: cannot change/);
    expect(invalidMessage(() => change({ dispatch_transport: { form_namespace: 'n' } }))).toBe(
      'dispatch_transport: this destination uses http_transport, which cannot change: create a new destination instead',
    );
    expect(invalidMessage(() => change({ xml_format: {} }))).toMatch(/^xml_format: this destination uses json_format/);
  });

  it('shows the observed keys, the parameters nested by name, and the secret only where asked', () => {
    expect(toDestinationView(destination)).toEqual({
      id: 4,
      description: 'CRM',
      active: true,
      format_type: 'json_format',
      format_id: 4,
      transport_type: 'http_transport',
      transport_id: 4,
      binary_transport_type: null,
      binary_transport_id: null,
      created_at: '2026-05-04T09:00:00.000Z',
      updated_at: '2026-05-04T09:00:00.000Z',
      deactivated_reason: null,
      deactivated_at: null,
    });
    const detail = toDestinationDetailView(destination);
    const record = { id: 4, created_at: '2026-05-04T09:00:00.000Z', updated_at: '2026-05-04T09:00:00.000Z' };
    expect(detail.json_format).toEqual(record);
    expect(detail.http_transport).toEqual({ ...record, uri: 'https://crm.example.com/hook' });
    expect(JSON.stringify(detail)).not.toContain('whsec_');
    expect(toDestinationWithSecretView(destination)).toMatchObject({ secret: destination.secrets.current, previous_secret_expires_at: null });
  });
});
