/** Preview tokens: owns `preview_tokens`. */
export { prunePreviewTokens } from './preview.jobs.js';
export { previewRoutes } from './preview.routes.js';
export {
  createPreviewService,
  endPreviewTokensOf,
  endProjectPreviewTokens,
  type PreviewService,
} from './preview.service.js';
