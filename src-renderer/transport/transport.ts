/**
 * The renderer's ONE adapter to Cairn: either Electron IPC (the preload's window.api) or the
 * headless host (HTTP calls + server-sent events). Nothing else in the renderer knows which.
 */
import type { CairnApi } from '@shared/contract';
import type { CairnEventListener, CairnPreloadGlobals } from '@shared/bridge';
import { createHttpTransport } from './http-transport';

export interface Transport {
  kind: 'ipc' | 'http';
  api: CairnApi;
  /** Receives every pushed event; returns its unsubscribe function. */
  subscribe(listener: CairnEventListener): () => void;
  /**
   * Called each time the event stream opens, the first time included: events before that moment
   * (a break, or the time the first stream took to open) never arrived, so the listener fetches a
   * fresh snapshot. IPC delivers from the start and never breaks. Returns its unsubscribe function.
   */
  onStreamOpen(listener: () => void): () => void;
  /** Closes connections the transport opened (the event stream). */
  dispose(): void;
}

export function createIpcTransport(globals: CairnPreloadGlobals): Transport {
  return {
    kind: 'ipc',
    api: globals.api,
    subscribe: (listener) => globals.onCairnEvent(listener),
    onStreamOpen: () => () => {},
    dispose: () => {},
  };
}

/** The token the headless host injected into index.html (or, as a fallback, the page URL's ?token=). */
export function hostToken(doc: Document, location: Location): string | null {
  return (
    doc.querySelector<HTMLMetaElement>('meta[name="cairn-token"]')?.content ||
    new URLSearchParams(location.search).get('token')
  );
}

export function selectTransport(win: Window & Partial<CairnPreloadGlobals>): Transport {
  if (win.api && typeof win.onCairnEvent === 'function')
    return createIpcTransport({ api: win.api, onCairnEvent: win.onCairnEvent });
  const token = hostToken(win.document, win.location);
  if (!token)
    throw new Error(
      'No connection to Cairn: open the address printed by `cairn serve` (it carries the access token).',
    );
  return createHttpTransport({ origin: win.location.origin, token });
}
