import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder for each test of the suite that calls it, removed after the test: `dir()` names it. */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error('useTempDir: the folder exists only while a test runs');
    return dir;
  };
}
