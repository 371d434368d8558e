/**
 * What an operator reads when a process cannot start: one line that names the cause and the fix,
 * not a stack. Only failures whose cause is outside Folio (a database that is missing or down, a port
 * taken, a directory it may not write) are turned into such a line; anything else is a bug and keeps
 * its stack, because that is what whoever fixes it needs.
 */
export interface StartupTarget {
  /** `postgres://…` or the SQLite file. */
  database?: { kind: 'postgres'; url: string } | { kind: 'sqlite'; file: string };
  port?: number;
  host?: string;
}

interface SystemError {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  path?: string;
  errors?: unknown[];
  cause?: unknown;
}

function postgresParts(url: string): { where: string; database: string; user: string } {
  try {
    const parsed = new URL(url);
    return {
      where: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`,
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
      user: decodeURIComponent(parsed.username) || 'postgres',
    };
  } catch {
    return { where: 'DATABASE_URL', database: '?', user: '?' };
  }
}

/** One line for a known start-up failure, or null when the error is not one of them. */
export function describeStartupError(err: unknown, target: StartupTarget): string | null {
  // The migrator wraps the driver's error (`cause`); pg reports a refused connection to a host with
  // several addresses as an AggregateError whose first error has the code.
  let e = err as SystemError | null;
  while (e && typeof e === 'object' && !e.code && (e.cause || e.errors?.length))
    e = (e.cause ?? e.errors?.[0]) as SystemError;
  if (!e || typeof e !== 'object') return null;
  const code = e.code;
  const db = target.database;

  if (db?.kind === 'postgres') {
    const { where, database, user } = postgresParts(db.url);
    const host = where.split(':')[0];
    if (code === '3D000')
      return `The PostgreSQL database "${database}" does not exist on ${where}. Create it: createdb -h ${host} -U ${user} ${database}`;
    if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'ENOTFOUND')
      return `Cannot reach PostgreSQL at ${where} (${code}). Start it, or point DATABASE_URL at a running server.`;
    if (code === '28P01' || code === '28000')
      return `PostgreSQL at ${where} refused the login of user "${user}". Fix the user or password in DATABASE_URL.`;
    if (code === '42501')
      return `User "${user}" may not create Folio's tables in "${database}" on ${where}. Grant it CREATE on the database, or use its owner in DATABASE_URL.`;
  }
  if (code === 'EADDRINUSE')
    return `Port ${e.port ?? target.port} on ${target.host ?? e.address ?? 'this machine'} is already in use (another Folio?). Stop that process or choose another PORT.`;
  if (code === 'EACCES' && e.port !== undefined)
    return `Not allowed to listen on port ${e.port}. Use a port above 1023 (PORT), or run behind a proxy.`;
  if (code === 'EADDRNOTAVAIL')
    return `Cannot listen on ${target.host}: this machine has no such address. Set HOST to one of its addresses (or 0.0.0.0).`;
  if (
    db?.kind === 'sqlite' &&
    ['SQLITE_CANTOPEN', 'EACCES', 'ENOENT', 'ENOTDIR', 'EROFS'].includes(code ?? '')
  )
    return `Cannot open the SQLite database ${db.file} (${code}). Make sure CMS_DATA_DIR exists and this user may write to it.`;
  return null;
}

/** Prints the one line (or the stack, for an unexpected error) and exits 1. */
export function exitOnStartupError(what: string, err: unknown, target: StartupTarget): never {
  const line = describeStartupError(err, target);
  const detail = line ?? (err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.stderr.write(`${what}: ${detail}\n`);
  process.exit(1);
}
