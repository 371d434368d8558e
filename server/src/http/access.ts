import type { Credential } from '../shared/principals.js';

/**
 * Who may call a route: the role table of contract §2, written once. Every /v1 route names one of
 * these in `config.access`; `installAuth` enforces it and documents it in the OpenAPI document.
 */
export type RequiredRole = 'member' | 'editor' | 'admin';

export interface AccessRule {
  /** Credentials that can authorise the call on their own. Empty: anyone. */
  readonly allow: readonly Credential[];
  /** The call acts on one project, which must be resolved. */
  readonly project: boolean;
  /** Lowest role a session needs in that project. */
  readonly role?: RequiredRole;
  /** A session must also present the publishable key of the same project. */
  readonly requireSiteKey?: boolean;
  /** A session may accompany a key to see drafts; it must then be a member of the project. */
  readonly optionalSession?: boolean;
  /** Access level a secret key needs. */
  readonly secretAccess?: 'read' | 'write';
  /** Take the project from the `:id` path parameter (routes under /v1/projects/:id). */
  readonly projectFromParam?: boolean;
  /**
   * What the route does with `x-cms-preview` (contract §16, §17). `read`: a preview token beside
   * the publishable key may authorise the call and then sees working copies (§10). `ignore`: the
   * header is not looked at (a site in preview still syncs its definitions). `forbid`: a valid token
   * is a 403 (the snapshot: a build never previews). Unset: the header is a 400 whatever else the
   * request carries — a client that sends it there has a bug worth seeing.
   */
  readonly preview?: 'read' | 'ignore' | 'forbid';
  /**
   * The route's write verifies the session in its own first statement (src/modules/auth/
   * session-check.ts), so the auth hook may let a session through on what this instance last read
   * of it (src/http/session-hints.ts) instead of two lookups. Only for handlers that pass
   * `request.auth.sessionCheck` to their write.
   */
  readonly sessionCheckedInWrite?: boolean;
}

export const access = {
  /** POST /v1/projects, login. */
  anyone: { allow: [], project: false },
  /** Any signed-in account, no project context: me, logout, refresh, the project list. */
  signedIn: { allow: ['session'], project: false },
  /** Account-level admin work (secret API keys): a session; the service checks admin rights per site. */
  accountAdmin: { allow: ['session'], project: false },
  /** A member of the project, any role. */
  member: { allow: ['session'], project: true, role: 'member' },
  memberOfParam: { allow: ['session'], project: true, role: 'member', projectFromParam: true },
  /** A project admin. */
  admin: { allow: ['session'], project: true, role: 'admin' },
  adminOfParam: { allow: ['session'], project: true, role: 'admin', projectFromParam: true },
  /** An editor or admin (media upload and delete). */
  editor: { allow: ['session'], project: true, role: 'editor' },
  /** An editor or admin editing content from the site: session plus the site's publishable key. */
  editorWithSiteKey: { allow: ['session'], project: true, role: 'editor', requireSiteKey: true },
  /** editorWithSiteKey for PATCH /v1/content/:entryId, whose write verifies the session itself. */
  editContent: {
    allow: ['session'],
    project: true,
    role: 'editor',
    requireSiteKey: true,
    sessionCheckedInWrite: true,
  },
  /**
   * One entry as the site's editor reads it (GET /v1/entries/:entryId): any member's session plus the
   * site's publishable key, or a preview token beside the key (contract §15, §17), as a page read.
   */
  memberWithSiteKey: {
    allow: ['session'],
    project: true,
    role: 'member',
    requireSiteKey: true,
    preview: 'read',
  },
  /** An admin removing content from the site (entry and page deletion): session plus the site's publishable key. */
  adminWithSiteKey: { allow: ['session'], project: true, role: 'admin', requireSiteKey: true },
  /**
   * Definitions sync (contract §11): the site's publishable key (bounded by the project's
   * definitionSync mode), or a member's session or a write secret key (may change everything). A
   * session sent beside the key counts, so it must then be a member of the key's project.
   */
  definitionsSync: {
    allow: ['publishableKey', 'session', 'secretKey'],
    project: true,
    role: 'editor',
    optionalSession: true,
    secretAccess: 'write',
    preview: 'ignore',
  },
  /** Published reads by the site or a server; a member's session adds drafts (the snapshot). */
  siteRead: {
    allow: ['publishableKey', 'secretKey'],
    project: true,
    optionalSession: true,
    role: 'member',
    secretAccess: 'read',
    preview: 'forbid',
  },
  /** Content of a page: a site read, where a preview token beside the key also adds drafts. */
  pageRead: {
    allow: ['publishableKey', 'secretKey'],
    project: true,
    optionalSession: true,
    role: 'member',
    secretAccess: 'read',
    preview: 'read',
  },
  /** Live updates (GET /v1/live): the publishable key, with an optional preview token for drafts. */
  live: { allow: ['publishableKey'], project: true, preview: 'read' },
  /** Object writes: an editor session or a write secret key. */
  objectsWrite: { allow: ['session', 'secretKey'], project: true, role: 'editor', secretAccess: 'write' },
  /** Object reads: publishable key, member session or secret key. */
  objectsRead: {
    allow: ['publishableKey', 'session', 'secretKey'],
    project: true,
    role: 'member',
    secretAccess: 'read',
    preview: 'read',
  },
} as const satisfies Record<string, AccessRule>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
}
