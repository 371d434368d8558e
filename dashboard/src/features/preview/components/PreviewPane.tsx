import { Alert, Anchor, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { previewTarget } from '../lib/bridge';
import type { BridgeStatus, PreviewBridge } from '../lib/preview-bridge';

interface Props {
  projectId: string;
  pageId: string;
  previewUrl: string | null;
  /** The locale the forms edit: a template with `{locale}` shows the site in it, and reloads on a switch. */
  locale?: string;
  bridge: PreviewBridge;
  status: BridgeStatus;
}

const WHY: Record<'invalid' | 'same-origin' | 'moved', string> = {
  invalid: 'The preview URL is not a valid http(s) address with {pageId}.',
  'same-origin': "The preview URL points at Folio's own address; it must be your site's.",
  moved: "This page's id changes the preview URL's origin, so the page cannot be previewed safely.",
};

/**
 * The site's page in a frame beside the forms. The frame's address never carries a token: the site
 * gets one over postMessage once it says hello from the preview URL's origin (lib/preview-bridge.ts).
 * The sandbox leaves the site what it needs (its scripts, its own origin's storage, forms, popups) and
 * takes away navigating the dashboard's window (no `allow-top-navigation`).
 */
export function PreviewPane({ projectId, pageId, previewUrl, bridge, status, locale }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const target = previewTarget(previewUrl, pageId, window.location.origin, locale);
  const origin = target.ok ? target.origin : null;

  useEffect(() => {
    if (!origin) return;
    return bridge.attach(() => frame.current?.contentWindow ?? null, origin);
  }, [bridge, origin]);

  return (
    <aside className="folio-preview" aria-label="Preview">
      {!target.ok ? (
        target.reason === 'shared' ? (
          <Text size="sm">
            {pageId} is a shared page: it holds content that other pages show (a menu, a footer), and is not a
            page of the site itself, so it has no preview. Open a page that shows it to see it there.
          </Text>
        ) : target.reason === 'unset' ? (
          <Text size="sm">
            No preview URL is set for this project.{' '}
            <Anchor component={Link} to={`/p/${projectId}/settings`}>
              Set one in Settings
            </Anchor>{' '}
            to see your site here and edit it by clicking its components.
          </Text>
        ) : (
          <Alert color="red" title="No preview">
            {WHY[target.reason]}{' '}
            <Anchor component={Link} to={`/p/${projectId}/settings`}>
              Change it in Settings
            </Anchor>
          </Alert>
        )
      ) : (
        <>
          <StatusLine status={status} origin={target.origin} />
          <iframe
            ref={frame}
            className="folio-preview-frame"
            title={`Preview of ${pageId}`}
            src={target.url}
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
            referrerPolicy="no-referrer"
          />
        </>
      )}
    </aside>
  );
}

function StatusLine({ status, origin }: { status: BridgeStatus; origin: string }) {
  if (status.kind === 'wrong-origin' || status.kind === 'failed') {
    return (
      <Alert color="red" role="alert" title="Visual editing is off">
        {status.kind === 'wrong-origin'
          ? `The page in the pane is on ${status.origin}, not on the preview URL's ${origin}; it was sent nothing. Point the preview URL at the address the site ends up on.`
          : `Folio could not hand the site a preview token: ${status.message}`}
      </Alert>
    );
  }
  return (
    <Text size="sm" c="dimmed" role="status">
      {status.kind === 'connected'
        ? 'Connected: click a component in the page to edit it; your typing shows there before you save.'
        : `Waiting for the site at ${origin} to connect (a site built with the Folio SDK connects by itself).`}
    </Text>
  );
}
