import { AppError } from '@formcast/platform';

/** The errors both store adapters throw, worded for the people who read them. */
export const resourceNotFound = (id: number) => new AppError('not_found', `Resource ${id} does not exist`);
