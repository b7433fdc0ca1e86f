/** The only module that names concrete connectors (STYLE.md §4). */
import type { Platform } from '../../../src-shared/models';
import { PLATFORM_INFO } from '../../../src-shared/platforms';
import { CairnError } from '../errors';
import type { Connector, ConnectorFactory, ConnectorInit } from './connector';
import { DINGTALK_NO_STREAM_LIMITATION, DingTalkConnector } from './dingtalk-connector';
import { createFeishuConnector, feishuLimitation } from './feishu-connector';
import { createFolderConnector } from './folder-connector';
import { IMA_LIMITATION, ImaConnector } from './ima-connector';
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

/**
 * The sentence a connection shows about what it cannot do, as its connector would say it, without
 * building a connector (listing connections must stay cheap). Secret names, never values, decide.
 */
export function connectionLimitation(platform: Platform, secretFields: readonly string[]): string | null {
  switch (platform) {
    case 'feishu':
    case 'lark':
      return feishuLimitation(PLATFORM_INFO[platform].label.en, secretFields.includes('userRefreshToken'));
    case 'dingtalk':
      // FACTORIES builds DingTalk without a Stream client, so without full text.
      return DINGTALK_NO_STREAM_LIMITATION;
    case 'ima':
      return IMA_LIMITATION;
    default:
      return null;
  }
}

/** Platforms whose connector offers a browser sign-in (`Connector.userSignIn`), known without building one. */
export function supportsUserSignIn(platform: Platform): boolean {
  return platform === 'feishu' || platform === 'lark';
}
