import { deliveryCommands, directoryCommands, pushCommands, resourceCommands } from '@formcast/contracts';
import { pathId } from '../http/path-params';
import type { PathId } from './declaration';

/** An outstanding oneshot of the path's device, read by its id (never by listing the device's, which may hold tens of thousands). */
const outstanding = (name: string): PathId => ({
  name,
  resolve: (lookup, ids) => lookup(pushCommands.findOutstandingOneshot, { deviceRef: ids['deviceRef'], oneshotId: pathId(ids[name], 'Oneshot') }),
});

/** The path ids the table's routes name, each resolved by its own lookup. */
export const pathIds = {
  group: { name: 'groupId', resolve: (lookup, ids) => lookup(directoryCommands.getGroup, { groupId: pathId(ids['groupId'], 'Group') }) },
  device: { name: 'deviceId', resolve: (lookup, ids) => lookup(directoryCommands.getDevice, { deviceId: pathId(ids['deviceId'], 'Device') }) },
  deviceRef: { name: 'deviceRef', resolve: (lookup, ids) => lookup(directoryCommands.findDevice, { ref: ids['deviceRef'] }) },
  outstandingOneshot: outstanding('oneshotId'),
  outstandingDispatch: outstanding('dispatchId'),
  destination: {
    name: 'destinationId',
    resolve: (lookup, ids) => lookup(deliveryCommands.getDestination, { formId: pathId(ids['formId'], 'Form'), destinationId: pathId(ids['destinationId'], 'Destination') }),
  },
  /** The device's own oneshot (a submission may name its own ended one: 409 with a good body, so that path exists). */
  ownOneshot: {
    name: 'oneshotId',
    resolve: (lookup, ids, req) =>
      lookup(pushCommands.deviceGetOneshot, { deviceId: req.context.deviceId, oneshotId: pathId(ids['oneshotId'], 'Oneshot'), includeEnded: /\/submission$/.test(req.path) }),
  },
  resource: { name: 'resourceId', resolve: (lookup, ids) => lookup(resourceCommands.describeResource, { resourceId: pathId(ids['resourceId'], 'Resource') }) },
  form: { name: 'formId', resolve: (lookup, ids) => lookup(directoryCommands.getForm, { formId: pathId(ids['formId'], 'Form') }) },
} satisfies Record<string, PathId>;

/**
 * The lookup of each path parameter a route's ids derive from (route-table/declare.ts), in
 * the path's order. A destination's lookup reads its form too, so a path with both names the
 * destination only; a oneshot below /device is the device's own (device-side.ts says so).
 */
export const pathIdOfParameter: Record<string, PathId> = {
  groupId: pathIds.group,
  deviceId: pathIds.device,
  deviceRef: pathIds.deviceRef,
  formId: pathIds.form,
  destinationId: pathIds.destination,
  resourceId: pathIds.resource,
  oneshotId: pathIds.outstandingOneshot,
  dispatchId: pathIds.outstandingDispatch,
};

/** Parameters another parameter's lookup resolves with it (the destination's reads its form). */
export const resolvedWith: Record<string, string> = { formId: 'destinationId' };
