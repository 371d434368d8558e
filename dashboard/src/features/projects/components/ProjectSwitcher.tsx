import { Select } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useProjects } from '../api/projects.api';

/**
 * Switching project goes to the other project's pages: the project is part of every address
 * (/p/:projectId/…), and every call sends it as x-cms-project-id.
 */
export function ProjectSwitcher({ projectId }: { projectId: string }) {
  const projects = useProjects();
  const navigate = useNavigate();
  const options = [
    ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name })),
    { value: '__new', label: '+ Create project…' },
  ];
  return (
    <Select
      label="Project"
      data={options}
      value={projectId}
      allowDeselect={false}
      w={220}
      comboboxProps={{ withinPortal: true }}
      onChange={(value) => {
        if (!value || value === projectId) return;
        navigate(value === '__new' ? '/projects/new' : `/p/${value}/pages`);
      }}
    />
  );
}
