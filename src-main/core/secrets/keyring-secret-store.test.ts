/**
 * The keychain path for real: a private D-Bus session with GNOME Keyring's Secret Service on it
 * (src-main/testing/secret-service.ts), the same protocol a Linux desktop's keyring speaks. And
 * the fallback: no Secret Service on the bus means the owner-only file, called what it is.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCairn } from '../app/create-cairn';
import { dataDirLayout } from '../app/data-dir';
import { silentLogger } from '../logging/logger';
import { secretServiceAvailable, startSecretService, type SecretService } from '../../testing/secret-service';
import { chooseSecretStore } from './choose-secret-store';
import { FileSecretStore } from './file-secret-store';
import { KeyringSecretStore } from './keyring-secret-store';

const TOKEN = 'yq-keychain-token-密钥-9c1e';
// Opening an on-disk database takes tens of seconds on a loaded two-core machine.
const ON_DISK = 180_000;
const savedBus = process.env['DBUS_SESSION_BUS_ADDRESS'];
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-keychain-'));
});

afterAll(() => {
  if (savedBus === undefined) delete process.env['DBUS_SESSION_BUS_ADDRESS'];
  else process.env['DBUS_SESSION_BUS_ADDRESS'] = savedBus;
  rmSync(scratch, { recursive: true, force: true });
});

/** Every file under a folder, with its bytes as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') + readFileSync(path, 'utf8') }));
}

// Without the Debian packages the Secret Service cannot be started: say so (CI installs them and must run it).
const withSecretService =
  secretServiceAvailable() || process.env['CI'] ? describe : describe.skip.bind(describe);

withSecretService('KeyringSecretStore on a real Secret Service (GNOME Keyring on a private D-Bus)', () => {
  let service: SecretService;

  beforeAll(async () => {
    service = await startSecretService();
    process.env['DBUS_SESSION_BUS_ADDRESS'] = service.address;
  });

  afterAll(() => service?.stop());

  it('keeps secrets in the keychain under a service named after the data directory, and removes them', async () => {
    const dataDir = join(scratch, 'direct');
    const { store, reason } = await KeyringSecretStore.open(dataDir);
    expect(reason).toBeNull();
    await store!.set('connection:wiki', { token: TOKEN, appSecret: 'second' });
    await store!.set('settings:chat', { apiKey: 'sk-chat' });
    // A second instance has no cache: it reads what the keychain holds.
    const fresh = (await KeyringSecretStore.open(dataDir)).store!;
    const listed = await findCredentialsAsync(KeyringSecretStore.serviceFor(dataDir));
    expect({
      wiki: await fresh.get('connection:wiki'),
      missing: await fresh.get('connection:none'),
      accounts: listed.map((credential) => credential.account).sort(),
      otherDataDir: await (
        await KeyringSecretStore.open(join(scratch, 'other'))
      ).store!.get('connection:wiki'),
      storage: fresh.storage,
    }).toEqual({
      wiki: { token: TOKEN, appSecret: 'second' },
      missing: null,
      accounts: ['connection:wiki', 'settings:chat'],
      otherDataDir: null,
      storage: { kind: 'keychain', path: null },
    });
    await fresh.delete('connection:wiki');
    expect(await (await KeyringSecretStore.open(dataDir)).store!.get('connection:wiki')).toBeNull();
  });

  it(
    'is what a headless Cairn chooses: a token given to a connection is in the keychain and in no file of the data dir',
    async () => {
      const dataDir = join(scratch, 'app');
      const cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
      try {
        const added = await cairn.api.connections.add({
          platform: 'yuque',
          name: 'wiki',
          mode: 'direct',
          config: { baseUrl: 'https://www.yuque.com/api/v2' },
          secrets: { token: TOKEN },
        });
        expect(added.ok && added.value.secretFields).toEqual(['token']);
        const status = await cairn.api.app.status();
        expect(status.ok && status.value.secretStorage).toEqual({ kind: 'keychain', path: null });
      } finally {
        await cairn.dispose();
      }
      const credentials = await findCredentialsAsync(KeyringSecretStore.serviceFor(dataDir));
      expect(credentials.map((credential) => credential.password).join()).toContain(TOKEN);
      expect(filesUnder(dataDir).filter((file) => file.text.includes(TOKEN))).toEqual([]);
    },
    ON_DISK,
  );

  it('moves secrets an older run left in the plain file into the keychain, then deletes the file', async () => {
    const dataDir = join(scratch, 'upgrade');
    const file = dataDirLayout(dataDir).secrets;
    await new FileSecretStore(file).set('connection:old', { token: TOKEN });
    const store = await chooseSecretStore({ dataDir, secretsFile: file, env: {}, logger: silentLogger() });
    expect({
      kind: store.storage.kind,
      moved: await (await KeyringSecretStore.open(dataDir)).store!.get('connection:old'),
      fileLeft: readdirSync(join(dataDir, 'secrets')),
    }).toEqual({ kind: 'keychain', moved: { token: TOKEN }, fileLeft: [] });
  });
});

describe('without a keychain', () => {
  beforeAll(() => {
    // A bus address where nothing listens: the Secret Service cannot be reached, as over SSH or in a container.
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(tmpdir(), 'cairn-no-bus-here')}`;
  });

  it(
    'falls back to the owner-only file and says it is not encrypted, with its path',
    async () => {
      const dataDir = join(scratch, 'fallback');
      const cairn = await createCairn({ dataDir, env: {}, scheduler: false, logger: silentLogger() });
      const file = dataDirLayout(dataDir).secrets;
      try {
        await cairn.api.settings.update({ chat: { provider: 'openai', apiKey: 'sk-fallback-key' } });
        const status = await cairn.api.app.status();
        expect(status.ok && status.value.secretStorage).toEqual({ kind: 'plain-file', path: file });
        expect(cairn.secrets.protection).toContain(`Not encrypted`);
      } finally {
        await cairn.dispose();
      }
      expect(readFileSync(file, 'utf8')).toContain('sk-fallback-key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    },
    ON_DISK,
  );

  it('refuses to start when CAIRN_SECRET_STORE=keychain and no keychain answers, instead of falling back', async () => {
    const dataDir = join(scratch, 'forced');
    const forced = chooseSecretStore({
      dataDir,
      secretsFile: dataDirLayout(dataDir).secrets,
      env: { CAIRN_SECRET_STORE: 'keychain' },
      logger: silentLogger(),
    });
    await expect(forced).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    const chosen = await chooseSecretStore({
      dataDir,
      secretsFile: dataDirLayout(dataDir).secrets,
      env: { CAIRN_SECRET_STORE: 'file' },
      logger: silentLogger(),
    });
    expect(chosen.storage).toEqual({ kind: 'plain-file', path: dataDirLayout(dataDir).secrets });
  });
});
