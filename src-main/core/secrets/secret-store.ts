/**
 * Where credentials live. Electron uses safeStorage; headless mode an owner-only file.
 * Values never reach logs, the renderer, or the index.
 */
export interface SecretStore {
  get(ref: string): Promise<Record<string, string> | null>;
  set(ref: string, values: Record<string, string>): Promise<void>;
  delete(ref: string): Promise<void>;
  /** A plain sentence about how secrets are protected (shown in the UI/CLI), e.g. a warning for plain files. */
  readonly protection: string;
}

/** In-memory store for tests and ephemeral runs. */
export class MemorySecretStore implements SecretStore {
  readonly protection = 'in memory only (not persisted)';
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
