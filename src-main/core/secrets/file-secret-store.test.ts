import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSecretStore } from './file-secret-store';

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cairn-secrets-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const posixOnly = process.platform === 'win32' ? it.skip : it;

describe('FileSecretStore', () => {
  it('persists secrets across instances and deletes them', async () => {
    const path = join(base, 'a', 'secrets.json');
    const store = new FileSecretStore(path);
    expect(await store.get('connection:x')).toBeNull();
    await store.set('connection:x', { appSecret: 's3cr3t-value', token: '令牌' });
    await store.set('settings:embedding', { apiKey: 'sk-test-123456' });
    await store.delete('settings:embedding');
    const reopened = new FileSecretStore(path);
    expect({
      x: await reopened.get('connection:x'),
      embedding: await reopened.get('settings:embedding'),
    }).toEqual({
      x: { appSecret: 's3cr3t-value', token: '令牌' },
      embedding: null,
    });
    expect(await readdir(join(base, 'a'))).toEqual(['secrets.json']);
  });

  posixOnly(
    'writes the file owner-only inside an owner-only folder, and tightens a loosened file',
    async () => {
      const path = join(base, 'b', 'secrets.json');
      const store = new FileSecretStore(path);
      await store.set('r', { k: 'v' });
      expect({
        file: (await stat(path)).mode & 0o777,
        dir: (await stat(join(base, 'b'))).mode & 0o777,
      }).toEqual({ file: 0o600, dir: 0o700 });
      await chmod(path, 0o644);
      await store.get('r');
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    },
  );

  it('loses no update when many writes overlap', async () => {
    const store = new FileSecretStore(join(base, 'c', 'secrets.json'));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`ref:${i}`, { value: `v${i}` })));
    const values = await Promise.all(Array.from({ length: 20 }, (_, i) => store.get(`ref:${i}`)));
    expect(values).toEqual(Array.from({ length: 20 }, (_, i) => ({ value: `v${i}` })));
  });

  it('refuses a corrupt file without overwriting it or quoting its content', async () => {
    const path = join(base, 'd.json');
    const corrupt = '{"version":1,"secrets":{"r":{"apiKey":"sk-leaked-9999"}';
    await writeFile(path, corrupt);
    const store = new FileSecretStore(path);
    const error = await store.set('other', { k: 'v' }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error).toBe(`The secret file ${path} is not valid JSON. It was left untouched; fix or remove it.`);
    expect(await readFile(path, 'utf8')).toBe(corrupt);
  });

  it('states plainly that it is not encrypted', () => {
    expect(new FileSecretStore('/x/secrets.json').protection).toBe(
      'Not encrypted: secrets are kept in plain text in /x/secrets.json, readable only by your user account.',
    );
  });
});
