import { parseSettings } from '../src/settings';

describe('settings', () => {
  it('refuses a bad setting with one line naming it', () => {
    expect(() => parseSettings({ PORT: 'eighty' })).toThrow(/^Invalid setting PORT: /);
    expect(() => parseSettings({ AMQP_URL: 'http://rabbit' })).toThrow(/^Invalid setting AMQP_URL: must start with amqp/);
    expect(() => parseSettings({ ADMIN_TOKEN: 'short' })).toThrow(/^Invalid setting ADMIN_TOKEN/);
  });

  it('chooses embedded defaults when no URL is set', () => {
    const s = parseSettings({});
    expect(s).toMatchObject({ PORT: 3000, DATA_DIR: './data', LOG_LEVEL: 'info' });
    expect(s.AMQP_URL ?? s.MONGO_URL ?? s.REDIS_URL).toBeUndefined();
  });

  it('reads the delivery settings, private networks refused unless said', () => {
    const defaults = parseSettings({});
    expect(defaults).toMatchObject({
      DELIVERY_ALLOW_PRIVATE_NETWORKS: false,
      DELIVERY_TIMEOUT_MS: 10000,
      DELIVERY_CONCURRENCY: 64,
      DELIVERY_DESTINATION_CONCURRENCY: 8,
      DELIVERY_ORGANIZATION_CONCURRENCY: 16,
    });
    expect(parseSettings({ DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true' }).DELIVERY_ALLOW_PRIVATE_NETWORKS).toBe(true);
    expect(parseSettings({ DELIVERY_ALLOW_PRIVATE_NETWORKS: 'FALSE' }).DELIVERY_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(parseSettings({ DELIVERY_ALLOW_PRIVATE_NETWORKS: '' }).DELIVERY_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(() => parseSettings({ DELIVERY_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      /^Invalid setting DELIVERY_ALLOW_PRIVATE_NETWORKS: must be true or false/,
    );
    expect(() => parseSettings({ DELIVERY_TIMEOUT_MS: '10' })).toThrow(/^Invalid setting DELIVERY_TIMEOUT_MS/);
  });
});
