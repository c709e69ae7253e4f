import type { Resource } from '../domain/records';
import { resourceNotFound } from '../store/resource-errors';
import type { ResourceStore } from '../store/resource-store';

/** The organization's resource, or AppError('not_found'): another organization's is unknown here. */
export async function requireResource(store: ResourceStore, orgId: number, resourceId: number): Promise<Resource> {
  const resource = await store.getResource(orgId, resourceId);
  if (!resource) throw resourceNotFound(resourceId);
  return resource;
}
