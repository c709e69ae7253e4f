import { AppError } from '@formcast/platform';
import { maxJsonDepth, refuseDeepJson } from '../../src/http/json-depth';
import { maxXmlDepth } from '../../src/xml/parse-xml';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

function refusal(text: string): AppError {
  try {
    refuseDeepJson(text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`accepted ${text.slice(0, 60)}`);
}

describe('refuseDeepJson', () => {
  it('allows as many levels as XML does: 32', () => {
    expect(maxJsonDepth).toBe(maxXmlDepth);
    expect(maxJsonDepth).toBe(32);
    for (const text of [arrays(32), objects(32), arrays(1), '{}', '"[[["', '42', '']) expect(() => refuseDeepJson(text)).not.toThrow();
  });

  it.each([33, 10_000, 1_000_000])('refuses %i levels with a 400, quickly, without parsing', (depth) => {
    const started = Date.now();
    for (const text of [arrays(depth), objects(depth), `{"a":[${'{"b":['.repeat(depth)}`]) {
      const error = refusal(text);
      expect(error.code).toBe('invalid');
      expect(error.message).toBe('The JSON body is nested deeper than 32 levels');
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('counts no bracket inside a string, escaped quotes and backslashes included', () => {
    const inString = JSON.stringify({ a: '['.repeat(100), b: '\\"[[[[', c: '\\', d: '{'.repeat(100) });
    expect(() => refuseDeepJson(`[${inString}]`)).not.toThrow();
    // After a string ending in a backslash, brackets count again.
    const after = `[${JSON.stringify('\\')},${arrays(32)}]`;
    expect(refusal(after).message).toMatch(/nested deeper/);
  });

  it('counts from the actual nesting, not the number of brackets', () => {
    expect(() => refuseDeepJson(`[${Array.from({ length: 1000 }, () => arrays(31)).join(',')}]`)).not.toThrow();
  });
});
