/**
 * What happens to a connection, told to whoever cares (STYLE.md §13): the connection service
 * publishes, and the services that hold something of a connection (its running sync, a waiting
 * sign-in, a cached direct-search connector) subscribe, instead of being called through hooks.
 */
import type { ConnectionMode } from '@shared/models';
import { AwaitedEventBus } from './awaited-event-bus';

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

/** The connection lifecycle's bus: "removing" waits for every listener before the rows go. */
export class ConnectionEventBus extends AwaitedEventBus<ConnectionEvents> {}
