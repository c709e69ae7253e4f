import { AppError } from '@formcast/platform';
import { Liquid } from 'liquidjs';

/** One parser for every check; rendering happens in the render worker, with the same options. */
const liquid = new Liquid({ strictFilters: true, cache: false });

/** Throws AppError('invalid') naming `field` when `template` does not parse as a liquid template. */
export function checkTemplate(field: string, template: string | null | undefined): void {
  if (template === null || template === undefined || template === '') return;
  try {
    liquid.parse(template);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'does not parse';
    throw new AppError('invalid', `${field}: the template does not parse: ${message}`);
  }
}
