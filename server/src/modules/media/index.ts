/** Media: owns `media` and `media_deletions`, and the bytes in the media store. */
export { mediaRoutes } from './media.routes.js';
export { mediaServeRoutes } from './media.serve.js';
export { createMediaService, type MediaService } from './media.service.js';
export { createVariantMaker } from './media.variants.js';
export { createMediaStorage } from './storage/create.js';
