import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CommandError, UsageError } from './io.js';

/** `path` resolved against the working directory the command was started in. */
export const pathIn = (cwd: string, path: string): string => resolve(cwd, path);

/**
 * Writes a file whole or not at all: into a temporary file beside it, then renamed over it, so a
 * build that reads it never sees half a snapshot, and a failure leaves the previous file as it was.
 */
export async function writeAtomically(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export const writeJson = (path: string, value: unknown): Promise<void> =>
  writeAtomically(path, `${JSON.stringify(value, null, 2)}\n`);

/** A JSON file the user named: a missing file or bad JSON is a usage error that names it. */
export async function readJsonArgument(path: string, shown: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${shown} is not JSON: ${(error as Error).message}`);
  }
}

/** A JSON file of an export directory: missing or broken means the directory is not a whole export. */
export async function readJsonPart<T>(path: string, shown: string): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    throw new CommandError(`${shown} is missing or broken (${(error as Error).message})`);
  }
}
