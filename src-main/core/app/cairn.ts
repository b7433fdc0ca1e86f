import type { CairnApi } from '@shared/contract';
import type { EventBus } from '../events/event-bus';

/** What the composition root builds: the contract implementation plus its event stream. */
export interface Cairn {
  api: CairnApi;
  /**
   * The same contract whose long calls (search, connection tests) stop when `signal` aborts: the
   * CLI's Ctrl-C. A transport cannot carry a signal, so IPC and HTTP use `api`.
   */
  cancellable(signal: AbortSignal): CairnApi;
  events: EventBus;
  /** The on-disk data directory, or null for an in-memory instance. */
  dataDir: string | null;
  /** Stops timers, cancels running work, closes the database last. */
  dispose(): Promise<void>;
}
