/** The published snapshot (GET /v1/snapshot), assembled from the sources handed to it. Owns no table. */
export { snapshotRoutes } from './snapshot.routes.js';
export {
  computeSnapshotVersion,
  createSnapshotService,
  type SnapshotService,
  type SnapshotSources,
} from './snapshot.service.js';
