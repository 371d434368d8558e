import { useMemo, useState } from 'react';
import { useApi } from '../../auth';
import { createPreviewToken } from '../api/preview-tokens.api';
import { type BridgeStatus, PreviewBridge } from '../lib/preview-bridge';

/**
 * A selection made in the site: which entry, where in it (a list item, a block or a field, by `_key`:
 * `features[_key=a].title`; null for the entry), and a counter so selecting it again focuses it again.
 */
export interface Selection {
  entryId: string;
  path: string | null;
  request: number;
}

/** The page screen's bridge (one per page), the site's connection status and its last selection. */
export function usePagePreview(projectId: string, pageId: string) {
  const api = useApi();
  const [status, setStatus] = useState<BridgeStatus>({ kind: 'waiting' });
  const [selection, setSelection] = useState<Selection | null>(null);
  const bridge = useMemo(
    () =>
      new PreviewBridge({
        pageId,
        createToken: () => createPreviewToken(api, projectId),
        onSelect: (entryId, path) => setSelection((s) => ({ entryId, path, request: (s?.request ?? 0) + 1 })),
        onStatus: setStatus,
      }),
    [api, projectId, pageId],
  );
  return { bridge, status, selection };
}
