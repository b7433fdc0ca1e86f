/** Local models in Settings: the catalogue snapshot, live download progress, and the Ollama offer. */
import type { ModelProgress, ModelsSnapshot, OllamaDetection } from '@shared/models';
import type { GetState, SetState, StoreDeps } from '../store-types';

export interface ModelsSlice {
  models: ModelsSnapshot | null;
  /** Running downloads' latest progress, by model id (from `models.progress`). */
  modelProgress: Record<string, ModelProgress>;
  ollama: OllamaDetection | null;
  loadModels(): Promise<void>;
  pullModel(id: string): Promise<void>;
  cancelModel(id: string): Promise<void>;
  removeModel(id: string): Promise<void>;
  detectOllama(): Promise<void>;
}

export function createModelsSlice(set: SetState, get: GetState, { api }: StoreDeps): ModelsSlice {
  const refresh = async () => {
    const result = await api.models.list();
    if (result.ok) set({ models: result.value });
    else get().showError(result.error);
  };
  return {
    models: null,
    modelProgress: {},
    ollama: null,
    loadModels: refresh,
    async pullModel(id) {
      const result = await api.models.pull({ id });
      if (!result.ok) get().showError(result.error);
      await refresh();
    },
    async cancelModel(id) {
      await api.models.cancel({ id });
    },
    async removeModel(id) {
      const result = await api.models.remove({ id });
      if (!result.ok) get().showError(result.error);
    },
    async detectOllama() {
      const result = await api.models.detectOllama();
      if (result.ok) set({ ollama: result.value });
    },
  };
}
