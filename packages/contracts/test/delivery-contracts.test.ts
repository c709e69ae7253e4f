import {
  createDestinationPayload,
  dispatchTransportParameters,
  httpTransportParameters,
  rotateDestinationSecretPayload,
  submissionReceivedPayload,
  updateDestinationPayload,
} from '../src';

const issues = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);

describe('destination payloads', () => {
  it('takes the API create body as the real product spells it', () => {
    const parsed = createDestinationPayload.parse({
      formId: 4,
      destination: { description: 'CRM', format_selection: 'json_format', transport_selection: 'http_transport' },
      http_transport: { uri: 'https://crm.example.com/hook', headers: { Authorization: 'Bearer x' } },
      json_format: {},
    });
    expect(parsed).toEqual({
      formId: 4,
      destination: { description: 'CRM', format_selection: 'json_format', transport_selection: 'http_transport' },
      http_transport: { uri: 'https://crm.example.com/hook', headers: { Authorization: 'Bearer x' } },
      json_format: {},
    });
  });

  it("requires the chosen transport's parameters and pairs dispatch_transport with xml_format", () => {
    const result = createDestinationPayload.safeParse({
      formId: 4,
      destination: { format_selection: 'json_format', transport_selection: 'dispatch_transport' },
    });
    expect(issues(result)).toEqual(['dispatch_transport: is required', 'destination.format_selection: must be xml_format with dispatch_transport']);
    expect(
      issues(createDestinationPayload.safeParse({ formId: 4, destination: { format_selection: 'csv', transport_selection: 'http_transport' } })),
    ).toContain('destination.format_selection: must be one of json_format, xml_format, text_format, pdf_format, word_format');
  });

  it('accepts only http and https URIs without credentials, and headers the delivery does not set itself', () => {
    expect(issues(httpTransportParameters.safeParse({ uri: 'ftp://files.example.com/x' }))).toEqual([
      'uri: must be an http or https URL, without credentials (send those as headers)',
    ]);
    expect(issues(httpTransportParameters.safeParse({ uri: 'https://user:pw@example.com/' }))).toHaveLength(1);
    expect(
      issues(httpTransportParameters.safeParse({ uri: 'https://example.com/', headers: { 'Webhook-Signature': 'x', 'a b': 'c', ok: 'one\ntwo' } })),
    ).toEqual([
      'headers.ok: header values are one line',
      'headers.Webhook-Signature: set by every delivery; a destination may not set content-type, content-length, transfer-encoding, connection, host, webhook-id, webhook-timestamp, webhook-signature',
      "headers.a b: header names are letters, digits and !#$%&'*+.^_`|~-",
    ]);
  });

  it('maps question identifiers to question identifiers in a field map', () => {
    expect(dispatchTransportParameters.parse({ form_namespace: 'http://x/xforms/1' })).toEqual({ form_namespace: 'http://x/xforms/1', field_map: {} });
    expect(issues(dispatchTransportParameters.safeParse({ form_namespace: 'n', field_map: { '1st': 'a', b: 'not one' } }))).toEqual([
      'field_map.b: must be a question identifier',
      'field_map.1st: must be a question identifier',
    ]);
  });

  it('updates with nothing but the ids, and rotates with a day of overlap unless told', () => {
    expect(updateDestinationPayload.parse({ formId: 1, destinationId: 2 })).toEqual({ formId: 1, destinationId: 2, destination: {} });
    expect(rotateDestinationSecretPayload.parse({ formId: 1, destinationId: 2 }).overlap_seconds).toBe(86400);
    expect(rotateDestinationSecretPayload.safeParse({ formId: 1, destinationId: 2, overlap_seconds: 8 * 86400 }).success).toBe(false);
  });
});

describe('push.submission.received', () => {
  const event = {
    submissionId: 7,
    orgId: 1,
    deviceId: 3,
    deviceIdentifier: 'Android_1',
    deviceOwner: 'Ada',
    formId: 9,
    formName: 'Site inspection',
    formNamespace: 'http://formcast.local/xforms/abc',
    formVersion: '1.00',
    oneshotId: null,
    clientSubmissionId: null,
    submittedAt: '2026-05-04T11:25:49+02:00',
    receivedAt: '2026-05-04T09:25:50.123Z',
    answers: { customer_name: 'Acme', parts: [{ part_no: 'A1' }] },
  };

  it('carries a whole submission', () => {
    expect(submissionReceivedPayload.parse(event)).toEqual(event);
  });

  it('refuses times that are not ISO 8601', () => {
    expect(issues(submissionReceivedPayload.safeParse({ ...event, submittedAt: '04/05/2026' }))).toEqual(['submittedAt: Invalid ISO datetime']);
  });
});
