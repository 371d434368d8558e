import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EncryptionKey } from './secret-box.js';
import { keyFilePath, loadOrCreateKeyFile, openSecretBox } from './secret-keys.js';

describe('encryption key file', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-keys-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('is created once, mode 0600, in the data directory (created if missing), then read back', () => {
    const dataDir = join(root, 'a', 'data');
    const first = loadOrCreateKeyFile(dataDir);
    assert.equal(first.created, true);
    assert.equal(statSync(keyFilePath(dataDir)).mode & 0o777, 0o600);
    const again = loadOrCreateKeyFile(dataDir);
    assert.equal(again.created, false);
    assert.equal(again.key.id, first.key.id);
    assert.equal(EncryptionKey.parse(readFileSync(keyFilePath(dataDir), 'utf8'))?.id, first.key.id);
  });

  it('a file that holds no key stops the start with its path', () => {
    const dataDir = join(root, 'bad');
    loadOrCreateKeyFile(dataDir);
    writeFileSync(keyFilePath(dataDir), 'garbage\n');
    assert.throws(() => loadOrCreateKeyFile(dataDir), new RegExp(keyFilePath(dataDir)));
  });

  it('CMS_ENCRYPTION_KEY wins: no file is made', () => {
    const dataDir = join(root, 'env');
    const key = EncryptionKey.generate();
    const { box, keyFileCreated } = openSecretBox({
      dataDir,
      encryptionKey: key,
      encryptionKeyPrevious: null,
    });
    assert.equal(box.keyId, key.id);
    assert.equal(keyFileCreated, null);
    assert.throws(() => statSync(keyFilePath(dataDir)));
  });
});
