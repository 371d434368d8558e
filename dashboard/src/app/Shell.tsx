import { Button, Group, Loader, NavLink, Text } from '@mantine/core';
import { Suspense, useState } from 'react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { useSession, useUser } from '../features/auth/api/session';
import { ChangePasswordDialog } from '../features/auth/components/ChangePasswordDialog';
import { useRole } from '../features/projects/api/projects.api';
import { ProjectSwitcher } from '../features/projects/components/ProjectSwitcher';
import { Logo } from './Logo';

/**
 * The screens of a project, in the order an editor reaches for them. `admin`: the API answers editors
 * 403 there, so an editor's menu leaves them out rather than leading to "Admins only" (the screens
 * still explain themselves to an editor who follows an old link).
 */
const SECTIONS = [
  ['pages', 'Pages', false],
  ['media', 'Media', false],
  ['objects', 'Objects', false],
  ['users', 'Users', false],
  ['api-keys', 'API keys', true],
  ['webhooks', 'Webhooks', true],
  ['settings', 'Settings', true],
  ['activity', 'Activity', true],
] as const;

/** Header (project, account, sign-out), the navigation landmark and the screen. */
export function Shell() {
  const { projectId } = useParams();
  const { signOut } = useSession();
  const user = useUser();
  const { pathname } = useLocation();
  const role = useRole(projectId ?? '');
  const [changingPassword, setChangingPassword] = useState(false);

  return (
    // A plain grid rather than Mantine's AppShell, which writes its sizes into a <style> element that
    // the CSP (no inline style sheets) would refuse.
    <div className="folio-shell" data-with-nav={projectId ? 'true' : 'false'}>
      <header className="folio-header">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Logo onDark />
            {projectId && <ProjectSwitcher projectId={projectId} />}
          </Group>
          <Group wrap="nowrap">
            <Text size="sm" c="white">
              {user.email}
            </Text>
            <Button variant="white" size="xs" onClick={() => setChangingPassword(true)}>
              Change password
            </Button>
            <Button variant="white" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </header>
      {projectId && (
        <nav className="folio-nav" aria-label="Main">
          {SECTIONS.filter(([, , admin]) => !admin || role === 'admin').map(([path, label]) => {
            const to = `/p/${projectId}/${path}`;
            const active = pathname === to || pathname.startsWith(`${to}/`);
            return (
              <NavLink
                key={path}
                component={Link}
                to={to}
                label={label}
                active={active}
                aria-current={active ? 'page' : undefined}
              />
            );
          })}
        </nav>
      )}
      <ChangePasswordDialog opened={changingPassword} onClose={() => setChangingPassword(false)} />
      <main className="folio-main">
        {/* Screens other than pages and the editor are loaded on demand (router.tsx). */}
        <Suspense fallback={<Loader role="status" aria-label="Loading the screen" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
