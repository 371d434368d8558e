/** The projects the editor belongs to, the current one and the editor's role in it. */
export { projectKeys, useProject, useProjects, useRole } from './api/projects.api';
