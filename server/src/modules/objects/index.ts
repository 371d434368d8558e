/** Objects: owns `objects`, `object_fields` and `object_items`. Lends the published objects of a snapshot. */
export { objectsRoutes } from './objects.routes.js';
export { createObjectsService, type ObjectsService } from './objects.service.js';
export { publishedObjectsForSnapshot } from './objects.snapshot.js';
