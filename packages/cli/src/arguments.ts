import { InvalidArgumentError } from 'commander';

/** An organization or token id: a positive integer, else a usage error before anything is sent. */
export function positiveId(value: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(value)) throw new InvalidArgumentError('Not an id (a positive integer).');
  return Number(value);
}

/** A dead-letter queue: the name of the service whose event queue it belongs to. */
export function queueName(value: string): string {
  if (!/^[a-z][a-z0-9_-]{0,62}$/.test(value)) throw new InvalidArgumentError('Not a queue name (a service, e.g. notifier).');
  return value;
}
