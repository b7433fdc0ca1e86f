/**
 * The local models for the composition root: the catalogue (+ CAIRN_MODEL_CATALOG), the store under
 * the data directory, the worker-backed runtime; and the reranker settings in effect (stored, with
 * CAIRN_RERANK_MODEL / CAIRN_RERANK_BUDGET_MS on top), kept current through `settings.changed`.
 */
import type { RerankerSettingsView } from '@shared/models';
import type { SettingsEventBus } from '../events/settings-events';
import type { Logger } from '../logging/logger';
import { loadCatalog, type ModelCatalog } from '../models/catalog';
import { LocalModels } from '../models/local-models';
import type { ModelService } from '../models/model-service';
import { ModelStore } from '../models/model-store';
import { CairnError } from '../errors';
import type { SettingsRepository } from '../settings/settings-repository';
import type { Disposers } from './disposers';

export interface LocalModelWiring {
  store: ModelStore;
  local: LocalModels;
  service: ModelService;
}

/** The catalogue, the store and the runtime of local models (the download service comes later: it asks the embedding service what is in use). */
export function localModelRuntime(options: {
  modelsDir: string;
  env: Record<string, string | undefined>;
  logger: Logger;
  workerEntry?: string;
}): { catalog: ModelCatalog; store: ModelStore; local: LocalModels } {
  const catalog = loadCatalog(options.env);
  const store = new ModelStore(options.modelsDir);
  const local = new LocalModels({
    store,
    catalog,
    logger: options.logger,
    ...(options.workerEntry ? { workerEntry: options.workerEntry } : {}),
  });
  return { catalog, store, local };
}

/** The reranker settings in effect now: read at start, then replaced on every `settings.changed`. */
export async function followRerankerSettings(deps: {
  settings: SettingsRepository;
  settingsEvents: SettingsEventBus;
  env: Record<string, string | undefined>;
  disposers: Disposers;
}): Promise<() => RerankerSettingsView> {
  let current = rerankerSettings((await deps.settings.get()).reranker, deps.env);
  deps.disposers.push(
    deps.settingsEvents.on('settings.changed', ({ after }) => {
      current = rerankerSettings(after.reranker, deps.env);
    }),
  );
  return () => current;
}

/** The reranker settings in effect: stored, overridden by CAIRN_RERANK_MODEL (an id, or "none") and CAIRN_RERANK_BUDGET_MS. */
export function rerankerSettings(
  stored: RerankerSettingsView,
  env: Record<string, string | undefined>,
): RerankerSettingsView {
  const model = env.CAIRN_RERANK_MODEL?.trim();
  const budget = env.CAIRN_RERANK_BUDGET_MS?.trim();
  const next = { ...stored };
  if (model === 'none') next.enabled = false;
  else if (model) Object.assign(next, { enabled: true, model });
  if (budget) {
    const value = Number(budget);
    if (!Number.isInteger(value) || value < 0 || value > 60_000)
      throw new CairnError(
        'INVALID_ARGUMENT',
        `CAIRN_RERANK_BUDGET_MS must be 0–60000 milliseconds; got "${budget}".`,
      );
    next.budgetMs = value;
  }
  return next;
}
