import { runInNewContext } from 'node:vm';
import { isAppError } from '@formcast/platform';
import { writeUnique } from '../../src/store/sqlite-unique';
import { thrownBy } from '../thrown-by';

/** An error as better-sqlite3 throws it, made in another realm (as a jest worker's later suites see it). */
function uniqueViolation(columns: string): unknown {
  return runInNewContext(
    `Object.assign(new Error('UNIQUE constraint failed: ${columns}'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })`,
  );
}

describe('writeUnique', () => {
  it('answers what the write answers', () => {
    expect(writeUnique({}, () => 3)).toBe(3);
  });

  it("turns a unique index's violation into its conflict, naming the value written", () => {
    const namespace = 'http://forms.example.com/taken';
    const error = thrownBy(() =>
      writeUnique({ name: 'Form', namespace }, () => {
        throw uniqueViolation('forms.org_id, forms.namespace');
      }),
    );
    expect(isAppError(error) && [error.code, error.message]).toEqual([
      'conflict',
      `A form with namespace "${namespace}" already exists`,
    ]);
    const secret = thrownBy(() =>
      writeUnique({ secretHash: 'x' }, () => {
        throw uniqueViolation('devices.secret_hash');
      }),
    );
    expect(isAppError(secret) && secret.message).toBe('This device secret is already in use');
  });

  it('lets any other error through as it is', () => {
    const other = uniqueViolation('groups.org_id');
    expect(thrownBy(() => writeUnique({ orgId: 1 }, () => { throw other; }))).toBe(other);
    const failure = new Error('disk I/O error');
    expect(thrownBy(() => writeUnique({}, () => { throw failure; }))).toBe(failure);
  });
});
