import { allInOrder } from '../src/all-in-order';

const failAfter = (ms: number, message: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));
const valueAfter = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('allInOrder', () => {
  it('resolves to every value, in argument order', async () => {
    await expect(allInOrder([valueAfter(20, 'device'), valueAfter(1, 42)])).resolves.toEqual(['device', 42]);
  });

  it("throws the first argument's error even when a later one fails sooner", async () => {
    await expect(allInOrder([failAfter(30, 'unknown device'), failAfter(1, 'unknown form')])).rejects.toThrow('unknown device');
  });

  it('throws the only error when one fails', async () => {
    await expect(allInOrder([valueAfter(1, 'device'), failAfter(10, 'unknown form')])).rejects.toThrow('unknown form');
  });
});
