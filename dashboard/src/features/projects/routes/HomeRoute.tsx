import { Navigate } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { useProjects } from '../api/projects.api';

/** `/admin/`: the first project's pages, or the first-run form when the account has none. */
export function HomeRoute() {
  const projects = useProjects();
  if (!projects.data) return <QueryState query={projects} what="your projects" />;
  const first = projects.data[0];
  return <Navigate to={first ? `/p/${first.id}/pages` : '/projects/new'} replace />;
}
