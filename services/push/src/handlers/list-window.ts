import type { OneshotListWindow } from '@formcast/contracts';
import type { ListWindow } from '../store/push-store';

/** The store's window of a listing command, or undefined when the command gave none (the whole list, as before). */
export function windowOf({ afterId, offset, limit }: OneshotListWindow): ListWindow | undefined {
  if (afterId === undefined && offset === undefined && limit === undefined) return undefined;
  return { afterId, offset, limit };
}
