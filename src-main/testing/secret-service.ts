/**
 * A real Secret Service for tests: a private D-Bus session bus and GNOME Keyring's daemon on it
 * (Debian packages dbus and gnome-keyring; .ci/run installs them), with a fresh home so the
 * keyring lives in a temporary folder and is gone afterwards. The keychain tests talk to it exactly
 * as Cairn talks to the user's keyring on a Linux desktop.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SecretService {
  /** DBUS_SESSION_BUS_ADDRESS of the private bus. */
  address: string;
  stop(): void;
}

const BINARIES = ['/usr/bin/dbus-daemon', '/usr/bin/dbus-send', '/usr/bin/gnome-keyring-daemon'];

/** False where the packages are missing (the caller says so; .ci/run installs them). */
export function secretServiceAvailable(): boolean {
  return process.platform === 'linux' && BINARIES.every((binary) => existsSync(binary));
}

export async function startSecretService(): Promise<SecretService> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-keyring-'));
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const env = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: runtime,
    XDG_CONFIG_HOME: join(home, 'config'),
  };
  const [address = '', pid = ''] = execFileSync(
    'dbus-daemon',
    ['--session', '--fork', '--nopidfile', '--print-address=1', '--print-pid=1'],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  )
    .trim()
    .split('\n');
  const busPid = Number(pid);
  const withBus = { ...env, DBUS_SESSION_BUS_ADDRESS: address };
  // --unlock reads the new login keyring's password from stdin and creates it unlocked: no prompt.
  const daemon = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
    env: withBus,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  daemon.stdin.end('cairn-test-keyring');
  await waitForSecretsName(withBus);
  return {
    address,
    stop() {
      daemon.kill();
      try {
        process.kill(busPid);
      } catch {
        // already gone
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The daemon claims org.freedesktop.secrets on the bus shortly after it starts. */
async function waitForSecretsName(env: NodeJS.ProcessEnv): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const names = execFileSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.ListNames',
      ],
      { env, encoding: 'utf8' },
    );
    if (names.includes('org.freedesktop.secrets')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gnome-keyring-daemon did not appear on the test bus');
}
