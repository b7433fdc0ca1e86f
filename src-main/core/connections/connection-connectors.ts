/**
 * Builds connectors: for a saved connection (its stored secrets, token rotation written back
 * safely, a lost user authorisation published as an event) and for credentials not saved yet
 * (a "Test connection" in the Add or Edit form). The sync service, direct search, the sign-in
 * flow and the connection service all get their connectors here.
 */
import type { Platform } from '@shared/models';
import type { Connector, ConnectorInit } from '../connectors/connector';
import { createConnector, defaultConnectorFactories, type ConnectorFactories } from '../connectors/registry';
import type { ConnectionEventBus } from '../events/connection-events';
import type { Logger } from '../logging/logger';
import type { ConnectionRepository } from './connection-repository';
import type { ConnectionSecrets } from './connection-secrets';

export interface ConnectionConnectorsDeps {
  repository: ConnectionRepository;
  secrets: ConnectionSecrets;
  lifecycle: ConnectionEventBus;
  logger: Logger;
  /** @default defaultConnectorFactories() */
  factories?: ConnectorFactories;
}

export class ConnectionConnectors {
  private readonly factories: ConnectorFactories;

  constructor(private readonly deps: ConnectionConnectorsDeps) {
    this.factories = deps.factories ?? defaultConnectorFactories();
  }

  /** A ready connector for a saved connection. */
  async forConnection(connectionId: string): Promise<Connector> {
    const view = await this.deps.repository.get(connectionId);
    const secrets = await this.deps.secrets.read(connectionId);
    // What this connector holds: a rotation is stored only over the value it replaces.
    let held = { ...secrets };
    return this.build(view.platform, {
      config: view.config,
      secrets,
      logger: this.deps.logger.child(view.platform),
      // OAuth refresh-token rotation: the new token replaces the old one at once.
      saveSecrets: async (rotated) => {
        held = await this.deps.secrets.storeRotated(connectionId, held, rotated);
      },
      onUserAuthLost: () => {
        this.deps.lifecycle.publish('accessLost', { connectionId }).catch((error: unknown) => {
          this.deps.logger.warn('publishing a lost user authorisation failed', { connectionId, error });
        });
      },
    });
  }

  /** A connector from settings and credentials that are not (all) saved: the form's "Test". */
  build(platform: Platform, init: ConnectorInit): Connector {
    return createConnector(platform, init, this.factories);
  }
}
