/** What `action` throws; a test fails when it throws nothing. */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error; nothing was thrown');
}
