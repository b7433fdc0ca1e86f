/** Chooses the semantic model for the configured provider: none means keyword search only. */
import type { EmbeddingProviderKind } from '@shared/models';
import { CairnError } from '../errors';
import type { Embedder } from './embedder';
import { OpenAiCompatibleEmbedder, type OpenAiEmbedderOptions } from './openai-embedder';
import { EMBEDDING_PRESETS } from './presets';

const PROVIDER_KINDS: readonly EmbeddingProviderKind[] = [
  'builtin',
  'local',
  'dashscope',
  'openai',
  'ollama',
  'custom',
];

export interface EmbeddingSettings {
  provider: EmbeddingProviderKind;
  /** Empty means the preset's. */
  baseUrl: string;
  /** Empty means the preset's. */
  model: string;
  dimensions: number;
  apiKey?: string;
}

/**
 * The provider 'builtin' (the default) is no semantic model: Cairn searches by keyword, offline and
 * out of the box, and stores no vectors (docs/decisions/vector-index.md, issue #26).
 */
export function isKeywordOnly(settings: Pick<EmbeddingSettings, 'provider'>): boolean {
  return settings.provider === 'builtin';
}

/**
 * The semantic model the settings name, or null: keyword search only ('builtin'), or a provider that
 * needs a key and has none (then the status says so). Otherwise an OpenAI-compatible embedder with
 * the preset's batch limit and request parameters, or an installed local model.
 */
export function createEmbedder(
  settings: EmbeddingSettings,
  overrides: Partial<OpenAiEmbedderOptions> = {},
  /** Builds the embedder of an installed local model by catalogue id (models/local-models.ts). */
  local?: (model: string) => Embedder,
): Embedder | null {
  if (settings.provider === 'builtin') return null;
  if (settings.provider === 'local') {
    if (!local) throw new CairnError('UNSUPPORTED', 'Local models are not available in this process.');
    if (!settings.model.trim())
      throw new CairnError('INVALID_ARGUMENT', 'Choose a local model (cairn models list shows the ids).');
    return local(settings.model.trim());
  }
  const preset = EMBEDDING_PRESETS[settings.provider];
  if (!preset)
    throw new CairnError('INVALID_ARGUMENT', `Unknown embedding provider "${String(settings.provider)}".`);
  const apiKey = settings.apiKey?.trim() || undefined;
  if (preset.requiresApiKey && !apiKey) return null;
  return new OpenAiCompatibleEmbedder({
    provider: settings.provider,
    baseUrl: settings.baseUrl.trim() || preset.baseUrl,
    apiKey,
    model: settings.model.trim() || preset.model,
    dimensions: settings.dimensions || preset.dimensions,
    maxBatchSize: preset.maxBatchSize,
    sendDimensions: preset.sendDimensions,
    sendTextType: preset.sendTextType,
    ...overrides,
  });
}

/**
 * Settings for headless use (CLI, CI) from CAIRN_EMBED_PROVIDER, CAIRN_EMBED_BASE_URL,
 * CAIRN_EMBED_API_KEY, CAIRN_EMBED_MODEL and CAIRN_EMBED_DIMENSIONS; null when none is set.
 * A base URL or key without a provider means 'custom' (any OpenAI-compatible server).
 */
export function embeddingSettingsFromEnv(env: Record<string, string | undefined>): EmbeddingSettings | null {
  const read = (name: string) => env[name]?.trim() || undefined;
  const provider = read('CAIRN_EMBED_PROVIDER');
  const baseUrl = read('CAIRN_EMBED_BASE_URL');
  const apiKey = read('CAIRN_EMBED_API_KEY');
  const model = read('CAIRN_EMBED_MODEL');
  const dimensionsText = read('CAIRN_EMBED_DIMENSIONS');
  if (!provider && !baseUrl && !apiKey && !model && !dimensionsText) return null;
  if (provider && !(PROVIDER_KINDS as readonly string[]).includes(provider)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `CAIRN_EMBED_PROVIDER must be one of ${PROVIDER_KINDS.join(', ')}; got "${provider}".`,
    );
  }
  const dimensions = dimensionsText === undefined ? 0 : Number(dimensionsText);
  if (!Number.isInteger(dimensions) || dimensions < 0 || dimensions > 16_000) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `CAIRN_EMBED_DIMENSIONS must be a positive whole number; got "${dimensionsText}".`,
    );
  }
  const kind = (provider ?? (baseUrl || apiKey ? 'custom' : 'builtin')) as EmbeddingProviderKind;
  if (kind === 'local' && !model)
    throw new CairnError(
      'INVALID_ARGUMENT',
      'CAIRN_EMBED_PROVIDER=local needs CAIRN_EMBED_MODEL=<catalogue id> (cairn models list shows them).',
    );
  const preset = kind === 'builtin' || kind === 'local' ? null : EMBEDDING_PRESETS[kind];
  return {
    provider: kind,
    baseUrl: baseUrl ?? preset?.baseUrl ?? '',
    model: model ?? preset?.model ?? '',
    dimensions: dimensions || preset?.dimensions || 1024,
    apiKey,
  };
}
