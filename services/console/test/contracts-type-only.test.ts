import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The console reads the API's shapes from @formcast/contracts as types only: Vite bundles
 * every value import, and contracts' values (its zod schemas) would land in the page.
 */
const sourceRoot = join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every import or export statement naming a module, whole (it may span lines). */
const moduleStatements = /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gms;

describe('the console and @formcast/contracts', () => {
  const files = sourceFiles(sourceRoot);

  it('imports contracts somewhere (the check below looks at something)', () => {
    expect(files.some((file) => readFileSync(file, 'utf8').includes("'@formcast/contracts'"))).toBe(true);
  });

  it('imports contracts with `import type` only', () => {
    const valueImports = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(moduleStatements)]
        .filter((match) => (match[1] ?? match[2])?.startsWith('@formcast/contracts'))
        .filter((match) => !/^\s*(?:import|export)\s+type\s/.test(match[0]))
        .map((match) => `${relative(sourceRoot, file)}: ${match[0].trim().split('\n')[0]}`),
    );
    expect(valueImports).toEqual([]);
  });
});
