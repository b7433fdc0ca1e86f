/**
 * Secrets encrypted with the OS keychain through Electron's safeStorage (Keychain on macOS,
 * DPAPI on Windows, libsecret/kwallet on Linux), kept as one owner-only JSON file of ciphertexts.
 * The Electron object is passed in, so this file runs (and is tested) in plain Node.
 * https://www.electronjs.org/docs/latest/api/safe-storage
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SecretStorageView } from '@shared/models';
import type { SecretStore } from '../core/secrets/secret-store';
import { CairnError } from '../core/errors';

/** The part of Electron's `safeStorage` this store needs. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only; "basic_text" means no keyring was found and the "encryption" uses a fixed key. */
  getSelectedStorageBackend?(): string;
}

type SecretFile = Record<string, string>;

export class SafeStorageSecretStore implements SecretStore {
  readonly protection: string;
  readonly storage: SecretStorageView;
  /** Serialises writes so two quick `set` calls cannot lose one another. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly safeStorage: SafeStorageLike,
    private readonly filePath: string,
  ) {
    const backend = safeStorage.getSelectedStorageBackend?.();
    this.protection = !safeStorage.isEncryptionAvailable()
      ? 'unavailable: this system offers no OS keychain to encrypt secrets'
      : backend === 'basic_text'
        ? 'weak: no keyring (libsecret or kwallet) was found, so secrets are obfuscated with a fixed key; install a keyring'
        : 'encrypted with the operating system keychain';
    // A fixed key is no encryption: the UI must not call it that.
    this.storage = !safeStorage.isEncryptionAvailable()
      ? { kind: 'unavailable', path: null }
      : backend === 'basic_text'
        ? { kind: 'plain-file', path: filePath }
        : { kind: 'keychain', path: null };
  }

  async get(ref: string): Promise<Record<string, string> | null> {
    const stored = (await this.readAll())[ref];
    if (stored === undefined) return null;
    try {
      return JSON.parse(this.safeStorage.decryptString(Buffer.from(stored, 'base64'))) as Record<
        string,
        string
      >;
    } catch (error) {
      throw new CairnError(
        'AUTH_INVALID',
        'Stored credentials could not be decrypted (the OS keychain changed?): enter them again.',
        { cause: error },
      );
    }
  }

  async set(ref: string, values: Record<string, string>): Promise<void> {
    if (!this.safeStorage.isEncryptionAvailable())
      throw new CairnError('UNSUPPORTED', 'This system offers no OS keychain to encrypt credentials.');
    const encrypted = this.safeStorage.encryptString(JSON.stringify(values)).toString('base64');
    await this.update((all) => ({ ...all, [ref]: encrypted }));
  }

  async delete(ref: string): Promise<void> {
    await this.update(({ [ref]: _removed, ...rest }) => rest);
  }

  private async readAll(): Promise<SecretFile> {
    try {
      return JSON.parse(await readFile(this.filePath, 'utf8')) as SecretFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new CairnError('INTERNAL', `The secret file ${this.filePath} is unreadable.`, { cause: error });
    }
  }

  private update(change: (all: SecretFile) => SecretFile): Promise<void> {
    const next = this.writing.then(async () => {
      const updated = change(await this.readAll());
      await mkdir(dirname(this.filePath), { recursive: true, mode: 0o700 });
      // Write then rename: a crash mid-write leaves the old file intact.
      const temporary = `${this.filePath}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(updated), { mode: 0o600 });
      await rename(temporary, this.filePath);
    });
    this.writing = next.catch(() => {});
    return next;
  }
}
