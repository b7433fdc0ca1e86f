import type { CairnEventName, CairnEvents } from '@shared/contract';

export type Unsubscribe = () => void;

/** Typed fan-out of pushed events (sync progress, chat tokens) to the transports (IPC, SSE, CLI). */
export class EventBus {
  private readonly listeners = new Set<
    <N extends CairnEventName>(name: N, payload: CairnEvents[N]) => void
  >();

  emit<N extends CairnEventName>(name: N, payload: CairnEvents[N]): void {
    for (const listener of this.listeners) {
      try {
        listener(name, payload);
      } catch {
        // A broken transport must not break the emitter or the other listeners.
      }
    }
  }

  /** Receives every event; returns its own disposer (STYLE.md §9). */
  onAny(listener: <N extends CairnEventName>(name: N, payload: CairnEvents[N]) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  on<N extends CairnEventName>(name: N, listener: (payload: CairnEvents[N]) => void): Unsubscribe {
    const wrapped = <M extends CairnEventName>(event: M, payload: CairnEvents[M]) => {
      if (event === (name as CairnEventName)) listener(payload as unknown as CairnEvents[N]);
    };
    this.listeners.add(wrapped);
    return () => this.listeners.delete(wrapped);
  }
}
