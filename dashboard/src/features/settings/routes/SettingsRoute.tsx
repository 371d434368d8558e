import { Stack, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { AdminOnly } from '../../../components/AdminOnly';
import { useProject } from '../../projects';
import { DeployHooks } from '../components/DeployHooks';
import { DeploysTable } from '../components/DeploysTable';
import { GeneralSettings } from '../components/GeneralSettings';
import { LocalesSettings } from '../components/LocalesSettings';
import { PublishableKey } from '../components/PublishableKey';

/** Project settings (admins): the project, its languages, its publishable key, deploy hooks and the deploys they made. */
export function SettingsRoute() {
  const projectId = useParams().projectId!;
  return (
    <AdminOnly
      projectId={projectId}
      title="Settings"
      why="A project's name, domains, keys and deploy hooks are changed by its admins."
    >
      <Settings projectId={projectId} />
    </AdminOnly>
  );
}

function Settings({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  return (
    <Stack>
      <Title order={1}>Settings</Title>
      {!project.data ? (
        <QueryState query={project} what="the settings" />
      ) : (
        <>
          <GeneralSettings project={project.data} />
          <LocalesSettings project={project.data} />
          <PublishableKey project={project.data} />
          <DeployHooks project={project.data} />
          <DeploysTable projectId={projectId} />
        </>
      )}
    </Stack>
  );
}
