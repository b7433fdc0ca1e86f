import type { SecretStorageView } from '@shared/models';

/**
 * Where credentials live. Electron uses safeStorage; headless mode the OS keychain, or an
 * owner-only file where there is none (choose-secret-store.ts). Values never reach logs, the
 * renderer, or the index.
 */
export interface SecretStore {
  get(ref: string): Promise<Record<string, string> | null>;
  set(ref: string, values: Record<string, string>): Promise<void>;
  delete(ref: string): Promise<void>;
  /** A plain sentence about how secrets are protected (shown in the UI/CLI), e.g. a warning for plain files. */
  readonly protection: string;
  /** The same as data, for the UI: "stored encrypted" appears only where `kind` is keychain. */
  readonly storage: SecretStorageView;
}

/** In-memory store for tests and ephemeral runs. */
export class MemorySecretStore implements SecretStore {
  readonly protection = 'in memory only (not persisted)';
  readonly storage: SecretStorageView = { kind: 'memory', path: null };
  private readonly values = new Map<string, Record<string, string>>();

  async get(ref: string): Promise<Record<string, string> | null> {
    const found = this.values.get(ref);
    return found ? { ...found } : null;
  }

  async set(ref: string, values: Record<string, string>): Promise<void> {
    this.values.set(ref, { ...values });
  }

  async delete(ref: string): Promise<void> {
    this.values.delete(ref);
  }
}
