/** The contract's `models` domain over the model service: downloads start in the background. */
import type { CairnApi } from '@shared/contract';
import { toResult } from '../errors';
import type { ModelService } from '../models/model-service';
import { detectOllama, type OllamaDetectOptions } from '../models/ollama-detect';

export function modelsApi(service: ModelService, ollama: OllamaDetectOptions = {}): CairnApi['models'] {
  return {
    list: () => toResult(() => service.snapshot()),
    pull: (input) =>
      toResult(async () => {
        // The outcome arrives as models.changed; a failure is kept on the model's view.
        void service.pull(input.id, input.mirror ? { mirror: input.mirror } : {}).catch(() => {});
        // Let an immediate refusal (unknown id, unsupported platform) surface as this call's error.
        await service.view(input.id);
      }),
    cancel: (input) => toResult(async () => service.cancel(input.id)),
    remove: (input) => toResult(() => service.remove(input.id)),
    import: (input) =>
      toResult(() =>
        service.import(input.id, input.folder, { allowUnverified: input.allowUnverified === true }),
      ),
    detectOllama: () => toResult(() => detectOllama(ollama)),
  };
}
