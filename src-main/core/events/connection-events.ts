/**
 * What happens to a connection, told to whoever cares (STYLE.md §13): the connection service
 * publishes, and the services that hold something of a connection (its running sync, a waiting
 * sign-in, a cached direct-search connector) subscribe, instead of being called through hooks.
 */
import type { ConnectionMode } from '@shared/models';

export interface ConnectionEvents {
  /** The connection is about to be deleted: stop what uses it. The delete waits for every listener. */
  removing: { connectionId: string };
  /** The connection, its documents and its secrets are gone. */
  removed: { connectionId: string };
  /** The mode was switched (the row already says so, so no new sync of the old mode starts). */
  modeChanged: { connectionId: string; mode: ConnectionMode };
  /**
   * Settings or credentials that reach the platform changed: an edit, a sign-in or a sign-out.
   * Connectors built from the old ones are stale; a refusal of the old ones says nothing of the new.
   */
  credentialsChanged: { connectionId: string };
  /**
   * The user is signing out of the connection: stop what holds the user's authorisation (a running
   * sync keeps rotating it). The sign-out waits for every listener before it removes the token.
   */
  signingOut: { connectionId: string };
  /** The platform refused the stored user authorisation for good (expired, revoked, reused). */
  accessLost: { connectionId: string };
}

export type ConnectionEventName = keyof ConnectionEvents;
type Listener<N extends ConnectionEventName> = (event: ConnectionEvents[N]) => Promise<void> | void;

/**
 * A typed bus whose publishers wait for the listeners: "removing" must have stopped the sync
 * before the rows go. Every listener runs even when one fails; the first failure is then thrown
 * to the publisher, as the hook it replaces would have.
 */
export class ConnectionEventBus {
  private readonly listeners = new Map<ConnectionEventName, Set<Listener<never>>>();

  on<N extends ConnectionEventName>(name: N, listener: Listener<N>): () => void {
    const set = this.listeners.get(name) ?? new Set();
    this.listeners.set(name, set);
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  async publish<N extends ConnectionEventName>(name: N, event: ConnectionEvents[N]): Promise<void> {
    const outcomes = await Promise.allSettled(
      [...(this.listeners.get(name) ?? [])].map(async (listener) => (listener as Listener<N>)(event)),
    );
    const failed = outcomes.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failed) throw failed.reason;
  }
}
