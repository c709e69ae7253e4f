import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, webhookHeaders } from '../../src/domain/signing';
import { newSigningSecrets, rotateSecrets, secretsInForce } from '../../src/domain/signing-secrets';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing', () => {
  it('signs so that the standardwebhooks package verifies the body', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = '{"metadata":{"submission_id":7},"answers":{"q":{"value":"é"}}}';
    const headers = webhookHeaders('msg_1', nowSeconds(), body, [secret]);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('fails verification for another body, another id or another secret', () => {
    const secret = generateSigningSecret();
    const headers = webhookHeaders('msg_1', nowSeconds(), '{"a":1}', [secret]);
    expect(() => new Webhook(secret).verify('{"a":2}', { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify('{"a":1}', { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify('{"a":1}', { ...headers })).toThrow();
  });

  it('signs with a secret again after more secrets than its kept keys, each still verifying', () => {
    const first = generateSigningSecret();
    const body = Buffer.from('{"pdf":"bytes"}');
    const verify = (secret: string) => {
      const headers = webhookHeaders('msg_3', nowSeconds(), body, [secret]);
      expect(() => new Webhook(secret).verify(body.toString('utf8'), { ...headers })).not.toThrow();
    };
    verify(first);
    for (let i = 0; i < 1100; i++) verify(generateSigningSecret());
    verify(first);
  });

  it('signs with every secret in force, space-separated, so either verifies during a rotation', () => {
    const now = Date.now();
    const before = newSigningSecrets();
    const after = rotateSecrets(before, now, 24 * 60 * 60 * 1000);
    expect(after.current).not.toBe(before.current);
    const inForce = secretsInForce(after, now);
    expect(inForce).toEqual([after.current, before.current]);
    const headers = webhookHeaders('msg_9', nowSeconds(), '{"b":1}', inForce);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [before.current, after.current]) {
      expect(new Webhook(secret).verify('{"b":1}', { ...headers })).toEqual({ b: 1 });
    }
  });

  it('stops signing with a replaced secret once its overlap is over, and not at all without one', () => {
    const now = Date.now();
    const first = newSigningSecrets();
    const second = rotateSecrets(first, now, 60_000);
    expect(secretsInForce(second, now + 59_999)).toHaveLength(2);
    expect(secretsInForce(second, now + 60_000)).toEqual([second.current]);
    // Rotating again later drops the expired one and retires the second.
    const third = rotateSecrets(second, now + 120_000, 60_000);
    expect(third.retired.map((retired) => retired.secret)).toEqual([second.current]);
    expect(rotateSecrets(third, now + 130_000, 0).retired.map((retired) => retired.secret)).toEqual([second.current]);
  });
});
