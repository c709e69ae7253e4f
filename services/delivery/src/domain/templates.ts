import { AppError } from '@formcast/platform';
import type { Liquid } from 'liquidjs';

/**
 * One parser for every check; rendering happens in the render worker, with the same options.
 * Made at the first template checked: liquidjs (~350 KB of source) is not held by a process
 * nobody configures a destination in (issue 23).
 */
let liquid: Liquid | undefined;
const parser = () => (liquid ??= new (require('liquidjs') as typeof import('liquidjs')).Liquid({ strictFilters: true, cache: false }));

/** Throws AppError('invalid') naming `field` when `template` does not parse as a liquid template. */
export function checkTemplate(field: string, template: string | null | undefined): void {
  if (template === null || template === undefined || template === '') return;
  try {
    parser().parse(template);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'does not parse';
    throw new AppError('invalid', `${field}: the template does not parse: ${message}`);
  }
}
