import type { EventBus } from '../events/event-bus';
import type { ConnectionRepository } from './connection-repository';

/** Tells the UI the current connection views (`connections.changed`), after anything that changes what they show. */
export async function announceConnections(
  events: EventBus | undefined,
  repository: Pick<ConnectionRepository, 'list'>,
): Promise<void> {
  if (events) events.emit('connections.changed', await repository.list());
}
