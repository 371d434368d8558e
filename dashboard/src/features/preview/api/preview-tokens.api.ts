import type { FolioClient } from '@folio/client';
import { inProject, unwrap } from '../../../lib/api';
import type { PreviewToken } from '../lib/preview-bridge';

/** One hour, the bridge's default (BRIDGE.md); the pane asks for a new one before it ends. */
const TTL_SECONDS = 3600;

/**
 * A read-only preview token of the project for the site in the pane. Not a TanStack query: it is a
 * credential handed to one frame, made on the site's request, never cached or shared between screens.
 */
export async function createPreviewToken(api: FolioClient, projectId: string): Promise<PreviewToken> {
  const token = unwrap(
    await api.POST('/v1/preview-tokens', {
      body: { ttlSeconds: TTL_SECONDS },
      headers: inProject(projectId),
    }),
  );
  return { token: token.token, lifetimeMs: TTL_SECONDS * 1000 };
}
