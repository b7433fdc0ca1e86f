/**
 * The one owner of a saved connection's secrets (STYLE.md §14): finds where they are stored,
 * reads them (registering every value with the log redactor first), saves, merges, stores a
 * connector's rotated tokens safely, and deletes them. Nothing else reads or writes the secret
 * store for a connection.
 */
import { CairnError } from '../errors';
import type { Logger, SecretRedactor } from '../logging/logger';
import type { SecretStore } from '../secrets/secret-store';

export type SecretValues = Record<string, string>;

/** Where a connection's secrets live: the `secret_ref` column (null for platforms without secrets). */
export interface SecretRefLookup {
  secretRef(connectionId: string): Promise<string | null>;
}

/** Names (never values) of the secret fields stored under a ref: what a connection view may show. */
export async function secretFieldNames(store: SecretStore, ref: string): Promise<string[]> {
  return Object.keys((await store.get(ref)) ?? {});
}

export class ConnectionSecrets {
  constructor(
    private readonly store: SecretStore,
    private readonly refs: SecretRefLookup,
    private readonly logger: Logger,
    private readonly redactor?: SecretRedactor,
  ) {}

  /** Registers values with the redactor, so no log line or failure message can carry them. */
  redact(values: SecretValues): void {
    this.redactor?.register(...Object.values(values));
  }

  /** The connection's stored secrets ({} when it has none). */
  async read(connectionId: string): Promise<SecretValues> {
    const ref = await this.refs.secretRef(connectionId);
    return ref ? this.readRef(ref) : {};
  }

  /** The stored secrets together with their ref, for an edit that may replace them. */
  async readForEdit(connectionId: string): Promise<{ ref: string | null; values: SecretValues }> {
    const ref = await this.refs.secretRef(connectionId);
    return { ref, values: ref ? await this.readRef(ref) : {} };
  }

  /** Replaces the connection's secrets with exactly these values. */
  async save(connectionId: string, values: SecretValues): Promise<void> {
    const ref = await this.requireRef(connectionId);
    this.redact(values);
    await this.store.set(ref, values);
  }

  /** Merges fields into the stored secrets (a sign-in's new refresh token). */
  async merge(connectionId: string, patch: SecretValues): Promise<void> {
    const ref = await this.requireRef(connectionId);
    this.redact(patch);
    await this.store.set(ref, { ...(await this.readRef(ref)), ...patch });
  }

  /**
   * Stores the fields a connector rotated, but only where the store still holds the value that
   * connector was built with: after a sign-out or an edit, a connector still running on the old
   * credentials (a sync, a direct search in flight) must not write them back. Returns what the
   * connector now holds.
   */
  async storeRotated(connectionId: string, held: SecretValues, rotated: SecretValues): Promise<SecretValues> {
    const ref = await this.requireRef(connectionId);
    this.redact(rotated);
    const current = await this.readRef(ref);
    const changed = Object.entries(rotated).filter(([key, value]) => held[key] !== value);
    const applicable = changed.filter(([key]) => current[key] === held[key]);
    const stale = changed.filter(([key]) => current[key] !== held[key]).map(([key]) => key);
    if (stale.length > 0)
      this.logger.warn(
        'a rotated credential was not stored: the stored one was replaced or removed meanwhile',
        {
          connectionId,
          fields: stale,
        },
      );
    if (applicable.length > 0) await this.store.set(ref, { ...current, ...Object.fromEntries(applicable) });
    return { ...held, ...Object.fromEntries(changed) };
  }

  /** Deletes what is stored under a ref (the connection row, which named it, is already gone). */
  async deleteRef(ref: string): Promise<void> {
    await this.store.delete(ref);
  }

  /** Writes under a ref directly: a new connection's first secrets, or an edit rolled back. */
  async writeRef(ref: string, values: SecretValues): Promise<void> {
    this.redact(values);
    await this.store.set(ref, values);
  }

  private async readRef(ref: string): Promise<SecretValues> {
    const values = (await this.store.get(ref)) ?? {};
    this.redact(values);
    return values;
  }

  private async requireRef(connectionId: string): Promise<string> {
    const ref = await this.refs.secretRef(connectionId);
    // Every platform with secret fields requires one, so its connections were created with a ref.
    if (!ref) throw new CairnError('INTERNAL', `Connection ${connectionId} has no secret reference.`);
    return ref;
  }
}
