import type { FolioClient, Schemas } from '@folio/client';
import { call, folioClient } from '../api.js';
import { UsageError } from '../io.js';
import type { Connection } from '../options.js';

/** A project as export and import reach it: through a member's session, and as a visitor. */
export interface ProjectAccess {
  url: string;
  project: Schemas['Project'];
  /** The session, naming the project (x-cms-project-id): definitions, objects, media, webhooks, settings. */
  member: FolioClient;
  /**
   * The session with the project's key: entries (the content routes take the key; with a session
   * beside it they read and write working copies). Not for objects: a key there makes the caller
   * a visitor, whom drafts are refused.
   */
  editor: FolioClient;
  /** The publishable key alone: what visitors see (published copies, the snapshot). */
  visitor: FolioClient;
}

/**
 * The project of a session: --project (FOLIO_PROJECT), else the one whose key is --key, else the
 * session's only project. Export and import need a session: definitions, working copies and history
 * are read by members only, and secret keys cannot manage webhooks or projects.
 */
export async function openProject(connection: Connection, command: string): Promise<ProjectAccess> {
  const { url, token } = connection;
  if (!token) {
    throw new UsageError(
      `${command} needs a member's session: --token or FOLIO_TOKEN ("folio login" prints one; an admin's, to include webhooks)`,
    );
  }
  const session = folioClient(url, { session: token });
  let projectId = connection.project;
  if (!projectId) {
    const projects = await call(url, 'list your projects', () => session.GET('/v1/projects'));
    const byKey = connection.key ? projects.find((p) => p.apiKey === connection.key) : undefined;
    if (byKey) projectId = byKey.id;
    else if (projects.length === 1) projectId = projects[0]!.id;
    else {
      throw new UsageError(
        projects.length === 0
          ? 'this session is a member of no project'
          : `this session is a member of ${projects.length} projects: choose one with --project (${projects
              .map((p) => `${p.id} "${p.name}"`)
              .join(', ')})`,
      );
    }
  }
  const id = projectId;
  const project = await call(url, `read project ${id}`, () =>
    session.GET('/v1/projects/{id}', { params: { path: { id } } }),
  );
  return {
    url,
    project,
    member: folioClient(url, { session: token, projectId: project.id }),
    editor: folioClient(url, { session: token, publishableKey: project.apiKey }),
    visitor: folioClient(url, { publishableKey: project.apiKey }),
  };
}
