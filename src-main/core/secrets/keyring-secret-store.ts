/**
 * Secrets in the operating system's keychain through @napi-rs/keyring (a maintained binding of
 * the Rust keyring crate): Keychain on macOS, Credential Manager on Windows, the Secret Service
 * (GNOME Keyring, KWallet…) on Linux. Used headless (CLI, `cairn serve`); Electron has safeStorage.
 * https://github.com/Brooooooklyn/keyring-node
 *
 * One keychain entry per secret ref (its fields as one JSON value), under a service name that
 * carries the data directory, so two data directories (a test's, the user's) never share entries.
 * Reads are cached in memory: the connection list asks which secret fields exist on every refresh,
 * and a D-Bus round trip (or a macOS keychain call) per connection per refresh adds up.
 */
import type { AsyncEntry, EntryOptions } from '@napi-rs/keyring';
import { CairnError } from '../errors';
import type { SecretStore } from './secret-store';

type KeyringModule = typeof import('@napi-rs/keyring');

/**
 * On Linux the crate would otherwise fall back to the kernel keyring (keyutils), which forgets
 * everything at logout or reboot: a keychain that silently loses credentials is worse than a file.
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

const PROBE_ACCOUNT = 'cairn-keychain-probe';

export class KeyringSecretStore implements SecretStore {
  readonly protection = 'encrypted by the operating system keychain';
  readonly storage = { kind: 'keychain', path: null } as const;
  private readonly cache = new Map<string, Record<string, string> | null>();

  private constructor(
    private readonly keyring: KeyringModule,
    readonly service: string,
  ) {}

  /** The service name of a data directory's entries, e.g. "Cairn (/home/me/.local/share/Cairn)". */
  static serviceFor(dataDir: string): string {
    return `Cairn (${dataDir})`;
  }

  /**
   * A store when a keychain answers on this machine, else null with the reason (no binding for
   * this platform, no Secret Service on the session bus…). The probe only looks an entry up,
   * which never asks the user to unlock anything.
   */
  static async open(dataDir: string): Promise<{ store: KeyringSecretStore | null; reason: string | null }> {
    let keyring: KeyringModule;
    try {
      keyring = await import('@napi-rs/keyring');
    } catch (error) {
      return { store: null, reason: `no keychain binding for this platform (${describe(error)})` };
    }
    const store = new KeyringSecretStore(keyring, KeyringSecretStore.serviceFor(dataDir));
    try {
      await store.entry(PROBE_ACCOUNT).getPassword();
      return { store, reason: null };
    } catch (error) {
      return { store: null, reason: describe(error) };
    }
  }

  async get(ref: string): Promise<Record<string, string> | null> {
    if (this.cache.has(ref)) return copy(this.cache.get(ref) ?? null);
    let stored: string | null;
    try {
      stored = await this.entry(ref).getPassword();
    } catch (error) {
      throw new CairnError('INTERNAL', `The system keychain could not be read: ${describe(error)}.`);
    }
    const values = stored === null ? null : parse(stored, ref);
    this.cache.set(ref, values);
    return copy(values);
  }

  async set(ref: string, values: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(values))
      if (typeof value !== 'string')
        throw new CairnError('INVALID_ARGUMENT', `Secret field "${key}" must be a string.`);
    try {
      await this.entry(ref).setPassword(JSON.stringify(values));
    } catch (error) {
      this.cache.delete(ref);
      throw new CairnError('INTERNAL', `The system keychain refused to store a secret: ${describe(error)}.`);
    }
    this.cache.set(ref, { ...values });
  }

  async delete(ref: string): Promise<void> {
    try {
      await this.entry(ref).deletePassword();
    } catch (error) {
      this.cache.delete(ref);
      throw new CairnError('INTERNAL', `The system keychain could not remove a secret: ${describe(error)}.`);
    }
    this.cache.set(ref, null);
  }

  private entry(ref: string): AsyncEntry {
    return new this.keyring.AsyncEntry(this.service, ref, ENTRY_OPTIONS);
  }
}

function parse(stored: string, ref: string): Record<string, string> {
  try {
    const value = JSON.parse(stored) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      if (Object.values(value).every((field) => typeof field === 'string'))
        return value as Record<string, string>;
  } catch {
    // The parser's message can quote the stored value (a secret): not passed on.
  }
  throw new CairnError('INTERNAL', `The keychain entry "${ref}" is not one Cairn wrote; remove it.`);
}

function copy(values: Record<string, string> | null): Record<string, string> | null {
  return values ? { ...values } : null;
}

/** The binding's messages name the platform's failure (D-Bus, locked keychain), never a secret. */
function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
