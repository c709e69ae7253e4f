import type { RouteArea } from './declaration';
import { admin } from './admin';
import { devicesFirstGeneration, devicesSecondGeneration, devicesSecondGenerationV2 } from './devices';
import { formLocks, forms } from './forms';
import { groupsFirstGeneration, groupsSecondGeneration, groupsSecondGenerationV2 } from './groups';
import { clients, organizationOneshots } from './oneshots';
import { remoteConnections } from './remote-connections';
import { dispatches, organizationDispatches } from './dispatches';
import { destinations } from './destinations';
import { deviceSide, enrollment } from './device-side';
import { reports } from './reports';
import { submissionImages } from './submission-images';
import { resources, resourcesV3, resourcesV4 } from './resources';
import { submissions } from './submissions';

export { admin, resources, resourcesV3, resourcesV4, submissionImages, deviceSide, enrollment, submissions, destinations, dispatches, organizationDispatches, remoteConnections, clients, organizationOneshots, devicesFirstGeneration, devicesSecondGeneration, devicesSecondGenerationV2, formLocks, forms, groupsFirstGeneration, groupsSecondGeneration, groupsSecondGenerationV2, reports };
export type { HostileCase, RouteArea, RouteDeclaration, RouteTableDeps } from './declaration';
export { fullPath } from './declaration';
export { routerOf } from './mount';

/** Every area of the route table (create-app.ts mounts each where its place in the chain is). */
export const routeTable: RouteArea[] = [
  enrollment,
  admin,
  groupsFirstGeneration,
  devicesFirstGeneration,
  forms,
  organizationOneshots,
  remoteConnections,
  devicesSecondGenerationV2,
  devicesSecondGeneration,
  groupsSecondGenerationV2,
  groupsSecondGeneration,
  formLocks,
  clients,
  destinations,
  submissions,
  submissionImages,
  resources,
  resourcesV3,
  resourcesV4,
  reports,
  dispatches,
  organizationDispatches,
  deviceSide,
];
