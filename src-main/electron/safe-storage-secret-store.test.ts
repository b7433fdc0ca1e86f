import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SafeStorageSecretStore, type SafeStorageLike } from './safe-storage-secret-store';

/** A real cipher in place of the OS keychain (Electron is not available in plain Node). */
function aesSafeStorage(key = randomBytes(32)): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const dir = await mkdtemp(join(tmpdir(), 'cairn-secrets-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('SafeStorageSecretStore', () => {
  it('round-trips secrets through an owner-only file that never holds plain text', async () => {
    const file = join(dir, 'secrets', 'safe.json');
    const storage = aesSafeStorage();
    const store = new SafeStorageSecretStore(storage, file);
    await Promise.all([
      store.set('conn:a', { token: 'yuque-token-秘密-123' }),
      store.set('conn:b', { appSecret: 'feishu-secret-456' }),
    ]);
    await store.delete('conn:b');
    const reopened = new SafeStorageSecretStore(storage, file);
    expect([await reopened.get('conn:a'), await reopened.get('conn:b')]).toEqual([
      { token: 'yuque-token-秘密-123' },
      null,
    ]);
    const raw = await readFile(file, 'utf8');
    expect(raw.includes('yuque-token') || raw.includes('秘密')).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses to store without a keychain and says why', async () => {
    const store = new SafeStorageSecretStore(
      { ...aesSafeStorage(), isEncryptionAvailable: () => false },
      join(dir, 'none.json'),
    );
    await expect(store.set('x', { token: 'abcdefgh' })).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    expect(store.protection).toContain('no OS keychain');
    const weak = new SafeStorageSecretStore(
      { ...aesSafeStorage(), getSelectedStorageBackend: () => 'basic_text' },
      join(dir, 'weak.json'),
    );
    expect(weak.protection).toContain('weak');
    // A fixed key is not encryption: the UI is told it is a plain file.
    expect([store.storage, weak.storage, new SafeStorageSecretStore(aesSafeStorage(), 'x').storage]).toEqual([
      { kind: 'unavailable', path: null },
      { kind: 'plain-file', path: join(dir, 'weak.json') },
      { kind: 'keychain', path: null },
    ]);
  });

  it('reports credentials it cannot decrypt instead of returning garbage', async () => {
    const file = join(dir, 'rotated.json');
    await new SafeStorageSecretStore(aesSafeStorage(), file).set('conn', { token: 'abcdefgh' });
    await expect(new SafeStorageSecretStore(aesSafeStorage(), file).get('conn')).rejects.toMatchObject({
      code: 'AUTH_INVALID',
    });
  });
});
