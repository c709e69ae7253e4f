import { Router, type RequestHandler } from 'express';
import { requireOwnOrganization } from '../http/organization-scope';
import { approveDevice, deleteDevice, listDevices, secondGeneration, showDevice, updateDevice } from './devices';
import type { RouteDeps } from './route-deps';

export interface DeviceV2RouteDeps extends RouteDeps {
  /** The organization API token check (`requireApiToken`), run for these routes only. */
  authenticate: RequestHandler;
}

/**
 * Devices v2 (observed-behaviour, "Later generations of the other APIs"): list and show at
 * /api/v2/organizations/<org>/devices…; approve, update and delete at
 * /api/organizations/<org>/devices… (update by PUT or PATCH). The first generation's handlers over the same commands,
 * answering the second generation's device (JSON unless the path or headers ask for XML):
 * one record on both. Another organization's id in the path is 404.
 */
export function deviceV2Routes({ send, authenticate }: DeviceV2RouteDeps): Router {
  const router = Router();
  const ownOrganization = [authenticate, requireOwnOrganization];
  router.get('/api/v2/organizations/:orgId/devices{.:format}', ...ownOrganization, listDevices(send, secondGeneration));
  router.get('/api/v2/organizations/:orgId/devices/:deviceId{.:format}', ...ownOrganization, showDevice(send, secondGeneration));
  router.put('/api/organizations/:orgId/devices/:deviceId{.:format}', ...ownOrganization, updateDevice(send, secondGeneration));
  router.patch('/api/organizations/:orgId/devices/:deviceId{.:format}', ...ownOrganization, updateDevice(send, secondGeneration));
  router.delete('/api/organizations/:orgId/devices/:deviceId{.:format}', ...ownOrganization, deleteDevice(send));
  router.post('/api/organizations/:orgId/devices/:deviceId/approve{.:format}', ...ownOrganization, approveDevice(send, secondGeneration));
  // Under /api/v2 too, as the product's README and api_v2_readme.md list them.
  router.delete('/api/v2/organizations/:orgId/devices/:deviceId{.:format}', ...ownOrganization, deleteDevice(send));
  router.post('/api/v2/organizations/:orgId/devices/:deviceId/approve{.:format}', ...ownOrganization, approveDevice(send, secondGeneration));
  return router;
}
