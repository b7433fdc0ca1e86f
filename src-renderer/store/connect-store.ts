/**
 * Snapshot, then deltas (STYLE.md §8): subscribe first (buffering), fetch app.status once,
 * hydrate, then replay the buffer and apply every later event through applyEvent.
 */
import type { CairnEventName, CairnEvents } from '../../src-shared/contract';
import type { Transport } from '../transport/transport';
import { hydrate } from './app-store';
import { applyEvent } from './apply-event';
import type { AppStore } from './store-types';

export function connectStore(store: AppStore, transport: Transport): () => void {
  let buffered: [CairnEventName, CairnEvents[CairnEventName]][] | null = [];
  let disposed = false;
  const unsubscribe = transport.subscribe((name, payload) => {
    if (buffered) buffered.push([name, payload]);
    else applyEvent(store, name, payload);
  });
  store.setState({ phase: 'loading', loadError: null });
  void transport.api.app.status().then((result) => {
    if (disposed) return;
    if (!result.ok) {
      store.setState({ phase: 'failed', loadError: result.error.message });
      return;
    }
    hydrate(store, result.value);
    // Events that raced the snapshot: replaying them is safe because each one carries a
    // complete value (the list, the progress), and chat tokens must not be lost.
    const pending = buffered ?? [];
    buffered = null;
    for (const [name, payload] of pending) applyEvent(store, name, payload);
  });
  return () => {
    disposed = true;
    unsubscribe();
  };
}
