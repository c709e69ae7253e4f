import { AppError, nullIfNotFound } from '../src';

describe('nullIfNotFound', () => {
  it('resolves with what the work resolves with', async () => {
    expect(await nullIfNotFound(Promise.resolve({ id: 7 }))).toEqual({ id: 7 });
  });

  it('resolves with null when the work fails with not_found', async () => {
    expect(await nullIfNotFound(Promise.reject(new AppError('not_found', 'Device 7 does not exist')))).toBeNull();
  });

  it('throws any other failure as it came', async () => {
    await expect(nullIfNotFound(Promise.reject(new AppError('unavailable', 'The directory is down')))).rejects.toThrow('The directory is down');
    await expect(nullIfNotFound(Promise.reject(new Error('socket hang up')))).rejects.toThrow('socket hang up');
  });
});
