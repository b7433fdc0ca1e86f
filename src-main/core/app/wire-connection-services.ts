/**
 * The services that change connections: add, test, edit, switch and remove them (refused while a
 * sync of the connection runs), and the user sign-in of platforms that have one. They come after
 * sync: an edit waits for no sync of the connection to be running.
 */
import { ConnectionService } from '../connections/connection-service';
import { UserAuthService } from '../connections/user-auth-service';
import type { Base } from './wire-base';
import type { ConnectionsWiring } from './wire-connections';
import type { SyncWiring } from './wire-sync';

export interface ConnectionServicesWiring {
  connections: ConnectionService;
  signIn: UserAuthService;
}

export function wireConnectionServices(
  base: Base,
  wiring: ConnectionsWiring,
  sync: SyncWiring,
): ConnectionServicesWiring {
  const { events, logger } = base;
  const connections = new ConnectionService({
    repository: wiring.repository,
    secrets: wiring.secrets,
    connectors: wiring.connectors,
    lifecycle: wiring.lifecycle,
    sync: sync.service,
    events,
    logger: logger.child('connections'),
  });
  const signIn = new UserAuthService({
    connectors: wiring.connectors,
    repository: wiring.repository,
    secrets: wiring.secrets,
    connections,
    flows: wiring.signInFlows,
    lifecycle: wiring.lifecycle,
    events,
    logger: logger.child('sign-in'),
    redact: base.redact,
  });
  base.disposers.push(() => signIn.dispose());
  return { connections, signIn };
}
