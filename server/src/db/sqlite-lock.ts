import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadSqlite } from './sqlite-driver.js';

/**
 * One Folio server per SQLite database. A second server on the same file would start, write
 * happily, and serve stale pages: its caches are never told about the other's writes (SQLite has no
 * cross-process change bus, src/db/dialect/change-bus.ts). So a server takes an exclusive lock on
 * `<database file>.lock` for as long as it runs.
 *
 * The lock is SQLite's own (an fcntl lock the operating system drops when the process ends, however
 * it ends), held by a connection in `locking_mode=EXCLUSIVE` that has written once. Rejected: a PID
 * file, which a crash leaves behind and which then needs a liveness check that PID reuse can fool;
 * locking the database file itself, which would also shut out the stand-alone worker and
 * `npm run migrate` (both safe beside a server: claims are atomic and nothing they do is cached).
 */
export interface FileLock {
  release(): void;
}

/** Takes the lock, or returns null when another process holds it. */
export async function lockSqliteDatabase(file: string): Promise<FileLock | null> {
  mkdirSync(dirname(file), { recursive: true }); // a first start: the data directory is not there yet
  const SQLite = await loadSqlite();
  const lock = new SQLite(`${file}.lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.pragma('journal_mode = MEMORY'); // no -journal file left beside it
    // The first write takes the exclusive lock; in this mode it is kept until the connection closes.
    lock.exec('BEGIN EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    lock.exec('DELETE FROM holder');
    lock.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    lock.exec('COMMIT');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return null;
    throw err;
  }
  return { release: () => lock.close() };
}
