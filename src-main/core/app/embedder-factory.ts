/** Builds the embedder the settings ask for. */
import type { EmbeddingSettingsView } from '../../../src-shared/models';
import { BuiltinEmbedder } from '../embedding/builtin-embedder';
import type { Embedder } from '../embedding/embedder';
import { CairnError } from '../errors';

export type EmbedderSettings = Partial<Omit<EmbeddingSettingsView, 'hasApiKey'>> & { apiKey?: string | null };

export function createEmbedderFromSettings(settings: EmbedderSettings): Embedder {
  if (!settings.provider || settings.provider === 'builtin') return new BuiltinEmbedder(settings.dimensions ?? 1024);
  throw new CairnError('UNSUPPORTED', `The ${settings.provider} embedding provider is not available in this build yet.`);
}
