import { unknownIdsAmong } from '../../src/domain/errors';

describe('unknownIdsAmong', () => {
  it('is null when every id wanted is found', () => {
    expect(unknownIdsAmong('Form', [3, 1], [1, 2, 3])).toBeNull();
    expect(unknownIdsAmong('Form', [], [])).toBeNull();
  });

  it('names one missing id', () => {
    const error = unknownIdsAmong('Device', [4, 1], [1]);
    expect(error).toMatchObject({ code: 'invalid', message: 'Device 4 does not exist', details: { ids: [4] } });
  });

  it('names several missing ids ascending, each once', () => {
    const error = unknownIdsAmong('Group', [9, 5, 9, 7, 1], new Set([1]));
    expect(error).toMatchObject({ code: 'invalid', message: 'Groups 5, 7 and 9 do not exist', details: { ids: [5, 7, 9] } });
  });
});
