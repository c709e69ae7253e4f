import { waitFor } from '../src/wait-for';

describe('waitFor', () => {
  it('returns the first truthy value of the predicate', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? `ready after ${calls}` : null), { intervalMs: 1 });
    expect(value).toBe('ready after 3');
  });

  it('waits for async predicates and treats their errors as not yet', async () => {
    let calls = 0;
    const value = await waitFor(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('not up');
        return calls;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe(3);
  });

  it('fails after the timeout, naming the condition and the last error', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('connection refused');
        },
        { timeoutMs: 30, intervalMs: 5, description: 'the broker' },
      ),
    ).rejects.toThrow('Timed out after 30 ms waiting for the broker (last error: connection refused)');
  });
});
