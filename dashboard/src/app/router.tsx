import { Center, Loader } from '@mantine/core';
import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject, useLocation } from 'react-router';
import { useSession } from '../features/auth/api/session';
import { SetPasswordScreen } from '../features/auth/routes/SetPasswordScreen';
import { SignInScreen } from '../features/auth/routes/SignInScreen';
import { PageEditorRoute } from '../features/editor/routes/PageEditorRoute';
import { HistoryRoute } from '../features/history/routes/HistoryRoute';
import { PagesRoute } from '../features/pages/routes/PagesRoute';
import { CreateProjectRoute } from '../features/projects/routes/CreateProjectRoute';
import { HomeRoute } from '../features/projects/routes/HomeRoute';
import { NotFound } from './NotFound';
import { RouteError } from './RouteError';
import { Shell } from './Shell';

/**
 * Without a session every address shows the sign-in (or the first-run form at /projects/new) and keeps
 * the address, so signing in lands where the editor was.
 */
function SessionGate() {
  const { state } = useSession();
  const { pathname } = useLocation();
  // A set-password link works whoever is signed in here (or nobody): the link is the proof.
  if (pathname === '/set-password') return <SetPasswordScreen />;
  if (state.status === 'checking') {
    return (
      <Center h="100vh">
        <Loader role="status" aria-label="Checking your session" />
      </Center>
    );
  }
  if (state.status === 'signedOut') {
    return pathname === '/projects/new' ? (
      <CreateProjectRoute />
    ) : (
      <SignInScreen expired={state.reason === 'expired'} />
    );
  }
  return <Shell />;
}

/**
 * A screen loaded on demand (React.lazy): the first load carries sign-in, projects, pages and the editor;
 * each other screen is its own chunk, fetched when first opened (the Shell's Suspense shows a loader).
 */
function screen<M>(load: () => Promise<M>, name: keyof M) {
  const Screen = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return <Screen />;
}

const media = screen(() => import('../features/media/routes/MediaRoute'), 'MediaRoute');
const objects = screen(() => import('../features/objects/routes/ObjectsRoute'), 'ObjectsRoute');
const users = screen(() => import('../features/users/routes/UsersRoute'), 'UsersRoute');
const apiKeys = screen(() => import('../features/api-keys/routes/ApiKeysRoute'), 'ApiKeysRoute');
const webhooks = screen(() => import('../features/webhooks/routes/WebhooksRoute'), 'WebhooksRoute');
const webhook = screen(() => import('../features/webhooks/routes/WebhookRoute'), 'WebhookRoute');
const settings = screen(() => import('../features/settings/routes/SettingsRoute'), 'SettingsRoute');
const activity = screen(() => import('../features/activity/routes/ActivityRoute'), 'ActivityRoute');
const acceptInvitation = screen(
  () => import('../features/users/routes/AcceptInvitationRoute'),
  'AcceptInvitationRoute',
);

const withErrorBoundary = (routes: RouteObject[]): RouteObject[] =>
  routes.map((r) => ({ ...r, errorElement: <RouteError /> }));

/** Served at /admin; the server answers index.html for every address below it. */
export const createRouter = () =>
  createBrowserRouter(
    [
      {
        element: <SessionGate />,
        children: [
          { index: true, element: <HomeRoute />, errorElement: <RouteError /> },
          { path: 'projects/new', element: <CreateProjectRoute />, errorElement: <RouteError /> },
          { path: 'set-password', element: null },
          // An invitation is accepted by a session of the invited account: signed out, the sign-in shows
          // here first (above), keeping the address and its #token.
          { path: 'invitations/accept', element: acceptInvitation, errorElement: <RouteError /> },
          {
            path: 'p/:projectId',
            // One error boundary per screen: a render error shows RouteError in the shell, not a blank page.
            children: withErrorBoundary([
              { index: true, element: <Navigate to="pages" replace /> },
              { path: 'pages', element: <PagesRoute /> },
              { path: 'pages/:pageId', element: <PageEditorRoute /> },
              { path: 'pages/:pageId/entries/:entryId/history', element: <HistoryRoute /> },
              { path: 'media', element: media },
              { path: 'objects', element: objects },
              { path: 'objects/:type', element: objects },
              { path: 'objects/:type/:objectId', element: objects },
              { path: 'users', element: users },
              { path: 'api-keys', element: apiKeys },
              { path: 'webhooks', element: webhooks },
              { path: 'webhooks/:webhookId', element: webhook },
              { path: 'settings', element: settings },
              { path: 'activity', element: activity },
            ]),
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
    { basename: '/admin' },
  );
