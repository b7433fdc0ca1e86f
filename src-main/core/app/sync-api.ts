/** The contract's `sync` domain over the sync service, every failure as data. */
import type { CairnApi } from '@shared/contract';
import { toResult } from '../errors';
import type { SyncService } from '../sync/sync-service';

export function syncApi(sync: SyncService): CairnApi['sync'] {
  return {
    start: (input) => toResult(() => sync.start(input.connectionId)),
    startAll: () => toResult(() => sync.startAll()),
    cancel: (input) => toResult(() => sync.cancel(input.connectionId)),
    runs: (input) => toResult(() => sync.runs(input.connectionId, input.limit)),
  };
}
