/**
 * Embedding: the local models' runtime, the embedding service (which semantic model serves which
 * space, and the semantic index it builds in the background; none by default: keyword search), the model downloads, and the
 * reranker in effect. A settings change that names another model or writes its key re-configures
 * the embedding service through `settings.changed`.
 */
import type { SettingsView } from '@shared/models';
import {
  createEmbedder,
  embeddingSettingsFromEnv,
  isKeywordOnly,
  type EmbeddingSettings,
} from '../embedding/create-embedder';
import type { Embedder } from '../embedding/embedder';
import { ModelService } from '../models/model-service';
import { LOCAL_PROVIDER } from '../models/runtime-specs';
import type { Reranker } from '../search/reranking';
import { EmbeddingService } from '../spaces/embedding-service';
import { reindexCost } from '../spaces/semantic-index';
import { SpaceSettingsStore } from '../spaces/space-settings';
import type { CreateCairnOptions } from './cairn';
import { followRerankerSettings, localModelRuntime, type LocalModelWiring } from './local-models-wiring';
import { temporaryFolder } from './temporary-folder';
import type { Base } from './wire-base';

export interface EmbeddingWiring {
  embeddings: EmbeddingService;
  /** Local model downloads and runtime. */
  models: LocalModelWiring;
  /** The reranker in effect and its time budget per search, or null (none chosen, or not installed). */
  reranker(): { reranker: Reranker; budgetMs: number } | null;
}

export async function wireEmbedding(base: Base, options: CreateCairnOptions): Promise<EmbeddingWiring> {
  const { env, settings, disposers } = base;
  const runtime = localModelRuntime({
    modelsDir: options.modelsDir ?? base.layout?.models ?? temporaryFolder('cairn-models-', disposers),
    env,
    logger: base.logger.child('models'),
    ...(options.workerEntry ? { workerEntry: options.workerEntry } : {}),
  });
  disposers.push(() => runtime.local.dispose());
  const build = (chosen: EmbeddingSettings): Embedder | null =>
    createEmbedder(chosen, {}, (id) => runtime.local.embedder(id));
  const embeddings = new EmbeddingService({
    db: base.db,
    events: base.events,
    logger: base.logger.child('embedding'),
    build: options.buildSemanticIndex ?? options.scheduler !== false,
    redact: base.redact,
    // CAIRN_EMBED_* (headless runs, CI) replace the stored embedding settings for this run.
    configuredEmbedder: async () => {
      const stored = (await settings.get()).embedding;
      const fromEnv = embeddingSettingsFromEnv(env);
      // No key to read (a keychain round trip) when no semantic model is chosen.
      const apiKey = fromEnv || isKeywordOnly(stored) ? null : await settings.apiKey('embedding');
      const chosen = fromEnv ?? { ...stored, apiKey: apiKey ?? undefined };
      base.redactor.register(chosen.apiKey);
      return { embedder: build(chosen), settings: chosen };
    },
    spaceSettings: new SpaceSettingsStore(
      base.db,
      base.secretStore,
      (key) => base.redactor.register(key),
      build,
    ),
  });
  await embeddings.start();
  disposers.push(() => embeddings.dispose());
  disposers.push(
    base.settingsEvents.on('settings.changed', async ({ before, after, keysWritten }) => {
      if (embeddingChanged(before, after) || keysWritten.includes('embedding'))
        await embeddings.reconfigure();
    }),
  );
  const rerankChoice = await followRerankerSettings(base);
  const reranker = () => {
    const found = runtime.local.reranker(rerankChoice());
    return found ? { reranker: found, budgetMs: rerankChoice().budgetMs } : null;
  };
  const service = startModelService(base, runtime, embeddings, () => reranker()?.reranker ?? null);
  return { embeddings, models: { store: runtime.store, local: runtime.local, service }, reranker };
}

/**
 * A changed key alone counts too (keysWritten): the same model behind a new key needs no re-embed,
 * but a provider that could not be built before may be buildable now.
 */
function embeddingChanged(before: SettingsView, after: SettingsView): boolean {
  return JSON.stringify(before.embedding) !== JSON.stringify(after.embedding);
}

/** Downloads, imports and removals of local models; told which ones the settings and the index use. */
function startModelService(
  base: Base,
  runtime: ReturnType<typeof localModelRuntime>,
  embeddings: EmbeddingService,
  rerankerInUse: () => Reranker | null,
): ModelService {
  const configured = async () => embeddingSettingsFromEnv(base.env) ?? (await base.settings.get()).embedding;
  const service = new ModelService({
    ...runtime,
    events: base.events,
    logger: base.logger.child('models'),
    settings: () => base.settings.get(),
    env: base.env,
    chunkCount: async () => (await reindexCost(base.db)).chunks,
    inUse: async () => {
      const chosen = await configured();
      const active = embeddings.status().activeSpace.split('/');
      const reranker = rerankerInUse();
      return [
        ...(chosen.provider === 'local' ? [chosen.model] : []),
        ...(active[0] === LOCAL_PROVIDER ? [active[1]?.split('@')[0] ?? ''] : []),
        ...(reranker ? [reranker.model] : []),
      ];
    },
    // A model the settings name was just installed (or replaced): build its embedder, start the re-embed.
    onChange: async (id) => {
      const chosen = await configured();
      if (chosen.provider === 'local' && chosen.model === id) await embeddings.reconfigure();
    },
  });
  service.start();
  base.disposers.push(() => service.dispose());
  return service;
}
