import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLocalStorage } from './local.js';
import type { MediaStorage, StoredObject } from './storage.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function store(heldBytes: number): Promise<{ storage: MediaStorage; root: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-local-store-'));
  dirs.push(dataDir);
  const storage = createLocalStorage(dataDir, heldBytes);
  await storage.init();
  return { storage, root: join(dataDir, 'media') };
}

async function put(storage: MediaStorage, key: string, bytes: Buffer): Promise<void> {
  const staged = storage.stagingPath();
  writeFileSync(staged, bytes);
  await storage.put(key, staged, { contentType: 'image/png', sha256: 'x', filename: 'a.png' });
}

/** The whole body as the serve route would send it. */
async function body(object: StoredObject, range?: { start: number; end: number }): Promise<Buffer> {
  if (object.bytes) return object.bytes(range);
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream(range)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const KEY = 'originals/prj_1/med_1.png';

describe('local media store: small files held in memory', () => {
  it('serves a small file from memory from its first read on, ranges included', async () => {
    const { storage } = await store(1024);
    const bytes = Buffer.from('0123456789abcdef'.repeat(10));
    await put(storage, KEY, bytes);
    for (let i = 0; i < 2; i++) {
      const object = await storage.open(KEY);
      assert.ok(object?.bytes, 'held');
      assert.deepEqual(await body(object), bytes);
      assert.deepEqual(await body(object, { start: 3, end: 5 }), Buffer.from('345'));
      // A caller that asks for a stream still gets the same bytes.
      const chunks: Buffer[] = [];
      for await (const chunk of object.stream({ start: 10, end: 19 })) chunks.push(chunk as Buffer);
      assert.deepEqual(Buffer.concat(chunks), bytes.subarray(10, 20));
    }
  });

  it('never serves a held file that was deleted behind its back (another instance sharing the directory)', async () => {
    const { storage, root } = await store(1024);
    await put(storage, KEY, Buffer.from('held bytes'));
    assert.ok((await storage.open(KEY))?.bytes);
    await rm(join(root, KEY));
    assert.equal(await storage.open(KEY), null);
  });

  it('serves the new bytes of a file replaced on disk, not the held ones', async () => {
    const { storage, root } = await store(1024);
    await put(storage, KEY, Buffer.from('the old bytes'));
    assert.deepEqual(await body((await storage.open(KEY)) as StoredObject), Buffer.from('the old bytes'));
    // A rename gives a new inode, as any put does.
    await writeFile(join(root, 'tmp', 'next'), 'the new bytes, longer');
    await rename(join(root, 'tmp', 'next'), join(root, KEY));
    assert.deepEqual(
      await body((await storage.open(KEY)) as StoredObject),
      Buffer.from('the new bytes, longer'),
    );
  });

  it('forgets what delete and deletePrefix remove', async () => {
    const { storage } = await store(1024);
    await put(storage, KEY, Buffer.from('one'));
    await put(storage, 'variants/prj_1/med_1/w10.png', Buffer.from('two'));
    await storage.open(KEY);
    await storage.open('variants/prj_1/med_1/w10.png');
    await storage.delete(KEY);
    assert.equal(await storage.open(KEY), null);
    await storage.deletePrefix('variants/prj_1/med_1/');
    assert.equal(await storage.open('variants/prj_1/med_1/w10.png'), null);
  });

  it('streams a file over a quarter of its limit instead of holding it', async () => {
    const { storage } = await store(400);
    await put(storage, KEY, Buffer.alloc(101, 7));
    const object = await storage.open(KEY);
    assert.equal(object?.bytes, undefined);
    assert.deepEqual(await body(object as StoredObject), Buffer.alloc(101, 7));
  });

  it('holds nothing with a limit of 0', async () => {
    const { storage } = await store(0);
    await put(storage, KEY, Buffer.from('x'));
    const object = await storage.open(KEY);
    assert.equal(object?.bytes, undefined);
    assert.deepEqual(await body(object as StoredObject), Buffer.from('x'));
  });
});
