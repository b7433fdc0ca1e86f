/** The only module that names concrete connectors (STYLE.md §4). */
import type { Platform } from '../../../src-shared/models';
import { CairnError } from '../errors';
import type { Connector, ConnectorFactory, ConnectorInit } from './connector';
import { DingTalkConnector } from './dingtalk-connector';
import { createFeishuConnector } from './feishu-connector';
import { createFolderConnector } from './folder-connector';
import { ImaConnector } from './ima-connector';
import { createYuqueConnector } from './yuque-connector';

const FACTORIES: Partial<Record<Platform, ConnectorFactory>> = {
  folder: createFolderConnector,
  feishu: createFeishuConnector('feishu'),
  lark: createFeishuConnector('lark'),
  yuque: createYuqueConnector,
  dingtalk: (init) => new DingTalkConnector(init),
  ima: (init) => new ImaConnector(init),
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
