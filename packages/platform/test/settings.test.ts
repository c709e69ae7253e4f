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
});
