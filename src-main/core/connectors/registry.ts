/** The only module that names concrete connectors (STYLE.md §4). */
import type { Platform } from '../../../src-shared/models';
import { CairnError } from '../errors';
import type { Connector, ConnectorFactory, ConnectorInit } from './connector';
import { createFolderConnector } from './folder-connector';

// Each platform's connector registers here, one line each, as it lands.
const FACTORIES: Partial<Record<Platform, ConnectorFactory>> = {
  folder: createFolderConnector,
};

export type ConnectorFactories = Partial<Record<Platform, ConnectorFactory>>;

export function defaultConnectorFactories(): ConnectorFactories {
  return { ...FACTORIES };
}

export function createConnector(platform: Platform, init: ConnectorInit, factories: ConnectorFactories = FACTORIES): Connector {
  const factory = factories[platform];
  if (!factory) throw new CairnError('UNSUPPORTED', `No connector for platform "${platform}" yet.`);
  return factory(init);
}
