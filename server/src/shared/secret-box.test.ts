import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { createSecretBox, EncryptionKey, isSealed, resealAll, SecretBoxError } from './secret-box.js';

const keyText = Buffer.alloc(32, 1).toString('base64');

describe('EncryptionKey', () => {
  it('parses 32 bytes of base64 or base64url, and nothing else', () => {
    assert.ok(EncryptionKey.parse(keyText));
    assert.ok(EncryptionKey.parse(Buffer.alloc(32, 250).toString('base64url')));
    assert.equal(EncryptionKey.parse(keyText)?.id, EncryptionKey.parse(`${keyText}\n`)?.id);
    assert.equal(EncryptionKey.parse(Buffer.alloc(16).toString('base64')), null);
    assert.equal(EncryptionKey.parse(Buffer.alloc(33).toString('base64')), null);
    assert.equal(EncryptionKey.parse('not base64 at all!'), null);
    assert.equal(EncryptionKey.parse(''), null);
  });

  it('never shows its bytes when logged or serialised', () => {
    const key = EncryptionKey.parse(keyText)!;
    assert.match(key.id, /^[0-9a-f]{16}$/);
    assert.ok(!JSON.stringify({ key }).includes(keyText));
    assert.ok(!inspect(key).includes(keyText));
    assert.ok(!inspect({ key }, { showHidden: true }).includes(keyText));
  });
});

describe('secret box', () => {
  const current = EncryptionKey.generate();
  const previous = EncryptionKey.generate();

  it('seals with a fresh IV and the key id, and opens what it sealed', () => {
    const box = createSecretBox(current);
    const a = box.seal('whsec_abc');
    const b = box.seal('whsec_abc');
    assert.notEqual(a, b);
    assert.ok(a.startsWith(`enc1:${current.id}:`));
    assert.ok(!a.includes('whsec_abc'));
    assert.ok(isSealed(a));
    assert.equal(box.open(a), 'whsec_abc');
    assert.equal(box.open(box.seal('')), '');
    assert.equal(box.open(box.seal('ünïcødé ✓')), 'ünïcødé ✓');
    assert.equal(box.needsSealing(a), false);
  });

  it('opens values of the previous key, and marks them for resealing', () => {
    const old = createSecretBox(previous).seal('ghp_token');
    const box = createSecretBox(current, previous);
    assert.equal(box.open(old), 'ghp_token');
    assert.equal(box.needsSealing(old), true);
  });

  it('reads a value in clear as it is, and marks it for sealing', () => {
    const box = createSecretBox(current);
    assert.equal(box.open('whsec_plain'), 'whsec_plain');
    assert.equal(box.needsSealing('whsec_plain'), true);
  });

  it('refuses a value of an unknown key, naming the key id', () => {
    const sealed = createSecretBox(previous).seal('x');
    assert.throws(
      () => createSecretBox(current).open(sealed),
      (err: unknown) =>
        err instanceof SecretBoxError &&
        err.keyId === previous.id &&
        err.message.includes(previous.id) &&
        err.message.includes('CMS_ENCRYPTION_KEY'),
    );
  });

  it('refuses an altered value', () => {
    const box = createSecretBox(current);
    const sealed = box.seal('secret value');
    const parts = sealed.split(':');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    const altered = [...parts.slice(0, 3), data.toString('base64url')].join(':');
    assert.throws(() => box.open(altered), SecretBoxError);
  });

  it('resealAll seals clear and previous-key values, skips current ones, and reports unreadable ones', async () => {
    const box = createSecretBox(current, previous);
    const stranger = createSecretBox(EncryptionKey.generate()).seal('lost');
    const values = ['in clear', createSecretBox(previous).seal('old'), box.seal('current'), stranger];
    const written: string[] = [];
    const result = await resealAll(
      values.map((secret) => ({
        secret,
        replace: async (sealed: string) => {
          written.push(box.open(sealed));
          return true;
        },
      })),
      box,
    );
    assert.equal(result.sealed, 2);
    assert.deepEqual(written, ['in clear', 'old']);
    assert.equal(result.unreadable.length, 1);
  });
});
