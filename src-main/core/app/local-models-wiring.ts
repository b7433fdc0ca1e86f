/**
 * Builds the local-model services for the composition root: the catalogue (+ CAIRN_MODEL_CATALOG),
 * the store under the data directory, the worker-backed runtime and the download service; and the
 * reranker settings (stored, with CAIRN_RERANK_MODEL / CAIRN_RERANK_BUDGET_MS on top).
 */
import type { RerankerSettingsView, SettingsView } from '@shared/models';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { loadCatalog } from '../models/catalog';
import { LocalModels } from '../models/local-models';
import { ModelService, type ModelServiceDeps } from '../models/model-service';
import { ModelStore } from '../models/model-store';
import { CairnError } from '../errors';

export interface LocalModelWiring {
  store: ModelStore;
  local: LocalModels;
  service: ModelService;
}

export function createLocalModelServices(options: {
  modelsDir: string;
  env: Record<string, string | undefined>;
  events: EventBus;
  logger: Logger;
  settings: () => Promise<SettingsView>;
  chunkCount: ModelServiceDeps['chunkCount'];
  inUse: ModelServiceDeps['inUse'];
  onChange: ModelServiceDeps['onChange'];
  workerEntry?: string;
}): LocalModelWiring {
  const catalog = loadCatalog(options.env);
  const store = new ModelStore(options.modelsDir);
  const local = new LocalModels({
    store,
    catalog,
    logger: options.logger,
    ...(options.workerEntry ? { workerEntry: options.workerEntry } : {}),
  });
  const service = new ModelService({
    store,
    catalog,
    local,
    events: options.events,
    logger: options.logger,
    settings: options.settings,
    env: options.env,
    chunkCount: options.chunkCount,
    inUse: options.inUse,
    onChange: options.onChange,
  });
  service.start();
  return { store, local, service };
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
