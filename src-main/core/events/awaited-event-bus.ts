/**
 * A typed bus whose publishers wait for the listeners (STYLE.md §13): the owner of a fact publishes
 * what happened, and the services that hold something of it subscribe, instead of being called
 * through hooks. Every listener runs even when one fails; the first failure is then thrown to the
 * publisher, as the call it replaces would have. Unlike the EventBus (pushed to the UI, fire and
 * forget), publishing here finishes when the listeners have: "removing" must have stopped a sync
 * before the rows go, and a settings update has re-planned the work it changes before it returns.
 */
type Listener<E> = (event: E) => Promise<void> | void;

export class AwaitedEventBus<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Returns its own disposer (STYLE.md §9). */
  on<N extends keyof Events>(name: N, listener: Listener<Events[N]>): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  async publish<N extends keyof Events>(name: N, event: Events[N]): Promise<void> {
    const outcomes = await Promise.allSettled(
      [...(this.listeners.get(name) ?? [])].map(async (listener) => (listener as Listener<Events[N]>)(event)),
    );
    const failed = outcomes.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failed) throw failed.reason;
  }
}
