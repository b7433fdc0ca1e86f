/**
 * How the contract crosses into a renderer: the names the preload puts on `window`, the IPC
 * channels behind them, and the one proxy builder both transports use. Pure: no electron, no DOM.
 */
import { API_METHODS, type CairnApi, type CairnEventName, type CairnEvents } from './contract';
import type { Result } from './errors';

export type CairnEventListener = <N extends CairnEventName>(name: N, payload: CairnEvents[N]) => void;

/** Everything the preload exposes on `window` (contextBridge): the api and one event subscription. */
export interface CairnPreloadGlobals {
  api: CairnApi;
  /** Returns its own unsubscribe function. */
  onCairnEvent(listener: CairnEventListener): () => void;
  /**
   * The path of a file or folder dropped on the window (Electron's webUtils.getPathForFile; a
   * sandboxed page cannot learn it otherwise). Absent in the browser, which never reveals it.
   */
  pathForFile?(file: unknown): string;
}

export const IPC_INVOKE_CHANNEL = 'cairn:invoke';
export const IPC_EVENT_CHANNEL = 'cairn:event';

/** Builds a CairnApi whose every method forwards `("<domain>.<method>", input)` to `call`. */
export function buildApiProxy(call: (channel: string, input: unknown) => Promise<Result<unknown>>): CairnApi {
  const api: Record<string, Record<string, (input?: unknown) => Promise<Result<unknown>>>> = {};
  for (const [domain, methods] of Object.entries(API_METHODS)) {
    const entries: Record<string, (input?: unknown) => Promise<Result<unknown>>> = {};
    for (const method of methods) entries[method] = (input?: unknown) => call(`${domain}.${method}`, input);
    api[domain] = entries;
  }
  // Safe: API_METHODS is checked exhaustive against CairnApi at compile time (contract.ts).
  return api as unknown as CairnApi;
}
