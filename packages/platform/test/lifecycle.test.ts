import { createLogger } from '../src/logger';
import { Lifecycle } from '../src/lifecycle';

describe('Lifecycle', () => {
  it('stops steps in reverse order of registration, once, even when one fails', async () => {
    const order: string[] = [];
    const lifecycle = new Lifecycle(createLogger({ level: 'silent' }));
    lifecycle.onStop('store', () => {
      order.push('store');
    });
    lifecycle.onStop('bus', async () => {
      order.push('bus');
      throw new Error('broker gone');
    });
    lifecycle.onStop('http', async () => {
      order.push('http');
    });
    await Promise.all([lifecycle.stop(), lifecycle.stop()]);
    await lifecycle.stop();
    expect(order).toEqual(['http', 'bus', 'store']);
  });
});
