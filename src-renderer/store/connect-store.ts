/**
 * Snapshot, then deltas (STYLE.md §8): subscribe first (buffering), fetch app.status once,
 * hydrate, then replay the buffer and apply every later event through applyEvent. Each time the
 * event stream opens (the host's: the first open too, which may come after the first snapshot was
 * taken; again after a break, when the host dropped a client that stopped reading or the network
 * blipped), events before it were lost, so the same happens again: buffer, fetch a fresh snapshot,
 * hydrate, replay; and a chat answer that was streaming reads its stored message (chat-slice
 * catchUpAnswers), since tokens and chat.done are not in the snapshot.
 */
import type { CairnEventName, CairnEvents } from '@shared/contract';
import type { Transport } from '../transport/transport';
import { hydrate } from './app-store';
import { applyEvent } from './apply-event';
import { HOST_CAUSE } from './slices/ui-slice';
import type { AppStore } from './store-types';

export function connectStore(store: AppStore, transport: Transport): () => void {
  let buffered: [CairnEventName, CairnEvents[CairnEventName]][] | null = [];
  let disposed = false;
  /** Only the latest snapshot request may hydrate (a second reconnect can overtake the first). */
  let generation = 0;
  /** Until a snapshot has hydrated the store, a failed one is the page's failed start. */
  let hydrated = false;
  const unsubscribe = transport.subscribe((name, payload) => {
    if (buffered) buffered.push([name, payload]);
    else applyEvent(store, name, payload);
  });

  function replay(): void {
    // Events that raced the snapshot: replaying them is safe because each one carries a
    // complete value (the list, the progress), and chat tokens must not be lost.
    const pending = buffered ?? [];
    buffered = null;
    for (const [name, payload] of pending) applyEvent(store, name, payload);
  }

  function load(): void {
    const mine = ++generation;
    buffered ??= [];
    void transport.api.app.status().then((result) => {
      if (disposed || mine !== generation) return;
      if (result.ok) {
        hydrate(store, result.value);
        hydrated = true;
        // Cairn answers again: an earlier "could not reach Cairn" no longer holds.
        if (store.getState().notice?.cause === HOST_CAUSE) store.setState({ notice: null });
      } else if (!hydrated) {
        store.setState({ phase: 'failed', loadError: result.error });
        return;
      } else store.getState().showError(result.error, HOST_CAUSE);
      replay();
    });
  }

  store.setState({ phase: 'loading', loadError: null });
  load();
  const stopStreamOpens = transport.onStreamOpen(() => {
    load();
    // The status snapshot holds no chat: an answer streaming across the break catches up from its stored message.
    void store.getState().catchUpAnswers();
  });
  return () => {
    disposed = true;
    unsubscribe();
    stopStreamOpens();
  };
}
