/**
 * The provider settings that built each registered embedding space (active, and pending during a
 * re-embed), so the active space's query embedder can be rebuilt after a restart in the middle of a
 * re-embed, when the user's settings already name the new provider. Without it, search loses its
 * vector channel until the flip.
 *
 * Non-secret fields (provider, base URL, model, dimensions) live in index_meta under
 * `embedding.space.<id>`; the API key goes to the SecretStore under `embedding-space:<id>`, never
 * into the database. Entries of spaces that are no longer registered are pruned, key included.
 */
import { z } from 'zod';
import type { Db } from '../db/database';
import { createEmbedder, type EmbeddingSettings } from '../embedding/create-embedder';
import type { Embedder } from '../embedding/embedder';
import { sameSpace, type SpaceRecord } from '../index/embedding-spaces';
import type { SecretStore } from '../secrets/secret-store';

const KEY_PREFIX = 'embedding.space.';

const storedSchema = z.object({
  provider: z.enum(['builtin', 'local', 'dashscope', 'openai', 'ollama', 'custom']),
  baseUrl: z.string(),
  model: z.string(),
  dimensions: z.int().positive(),
});

export function spaceSecretRef(space: Pick<SpaceRecord, 'id'>): string {
  return `embedding-space:${space.id}`;
}

export class SpaceSettingsStore {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
    /** Told every key read back, so logs redact it (SecretRedactor.register). */
    private readonly onSecret: (value: string) => void = () => {},
    /** Builds an embedder from settings (the composition root adds local models). @default createEmbedder */
    private readonly build: (settings: EmbeddingSettings) => Embedder | null = (settings) =>
      createEmbedder(settings),
  ) {}

  /** Records the settings (and key) that embed into `space`. */
  async save(space: SpaceRecord, settings: EmbeddingSettings): Promise<void> {
    const { apiKey, ...rest } = settings;
    const stored = storedSchema.parse(rest);
    await this.db.query(
      'INSERT INTO index_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [`${KEY_PREFIX}${space.id}`, JSON.stringify(stored)],
    );
    if (apiKey) await this.secrets.set(spaceSecretRef(space), { apiKey });
    else await this.secrets.delete(spaceSecretRef(space));
  }

  /**
   * Rebuilds the embedder of `space` from what `save` recorded, or null when nothing was recorded
   * (a data dir from before this existed) or the settings no longer produce that space.
   */
  async embedderFor(space: SpaceRecord): Promise<Embedder | null> {
    const row = (
      await this.db.query<{ value: unknown }>('SELECT value FROM index_meta WHERE key = $1', [
        `${KEY_PREFIX}${space.id}`,
      ])
    ).rows[0];
    const parsed = storedSchema.safeParse(row?.value);
    const apiKey = parsed.success ? (await this.secrets.get(spaceSecretRef(space)))?.['apiKey'] : undefined;
    if (apiKey) this.onSecret(apiKey);
    const embedder = parsed.success ? this.build({ ...parsed.data, apiKey }) : null;
    return embedder && sameSpace(embedder.space, space) ? embedder : null;
  }

  /** Forgets every space but `keep` (settings row and key). */
  async prune(keep: (SpaceRecord | null)[]): Promise<void> {
    const kept = new Set(keep.flatMap((space) => (space ? [`${KEY_PREFIX}${space.id}`] : [])));
    const rows = (
      await this.db.query<{ key: string }>('SELECT key FROM index_meta WHERE key LIKE $1', [`${KEY_PREFIX}%`])
    ).rows;
    for (const { key } of rows) {
      if (kept.has(key)) continue;
      const id = Number(key.slice(KEY_PREFIX.length));
      await this.db.query('DELETE FROM index_meta WHERE key = $1', [key]);
      if (Number.isSafeInteger(id)) await this.secrets.delete(spaceSecretRef({ id }));
    }
  }
}
