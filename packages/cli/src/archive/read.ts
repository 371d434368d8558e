import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonPart } from '../files.js';
import { CommandError } from '../io.js';
import {
  type Archive,
  FILES,
  FORMAT,
  FORMAT_VERSION,
  FORMAT_VERSION_LOCALES,
  type Manifest,
} from './format.js';

/** An export directory read whole (media bytes aside, read one at a time by `mediaBytes`). */
export async function readArchive(dir: string): Promise<Archive> {
  const manifest = await readJsonPart<Manifest>(join(dir, FILES.manifest), `${dir}/${FILES.manifest}`).catch(
    () => {
      throw new CommandError(
        `${dir} is not a Folio export (no ${FILES.manifest}; "folio export" writes one)`,
      );
    },
  );
  if (manifest.format !== FORMAT) throw new CommandError(`${dir}/${FILES.manifest} is not a Folio export`);
  if (manifest.formatVersion !== FORMAT_VERSION && manifest.formatVersion !== FORMAT_VERSION_LOCALES) {
    throw new CommandError(
      `${dir} is an export of format ${manifest.formatVersion}; this CLI reads formats ${FORMAT_VERSION} and ${FORMAT_VERSION_LOCALES}`,
    );
  }
  const part = <K extends Exclude<keyof Archive, 'manifest'>>(key: K) =>
    readJsonPart<Archive[K]>(join(dir, FILES[key]), `${dir}/${FILES[key]}`);
  return {
    manifest,
    project: await part('project'),
    definitions: await part('definitions'),
    entries: await part('entries'),
    objects: await part('objects'),
    media: await part('media'),
    webhooks: await part('webhooks'),
    snapshot: await part('snapshot'),
  };
}

export async function mediaBytes(dir: string, file: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return new Uint8Array(await readFile(join(dir, file)));
  } catch (error) {
    throw new CommandError(`${dir}/${file} is missing (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}
