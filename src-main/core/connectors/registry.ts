/** The only module that names concrete connectors (STYLE.md §4). */
import type { Platform } from '@shared/models';
import { PLATFORM_INFO } from '@shared/platforms';
import { CairnError } from '../errors';
import type { Connector, ConnectorFactory, ConnectorInit, Limitation } from './connector';
import {
  createDingTalkConnector,
  DINGTALK_NO_STREAM_LIMITATION,
  DINGTALK_STREAM_LIMITATION,
  streamEventsEnabled,
} from './dingtalk/dingtalk-connector';
import { DingTalkStreamHub } from './dingtalk/stream-hub';
import { createFeishuConnector, feishuLimitation } from './feishu/feishu-connector';
import { createFolderConnector } from './folder/folder-connector';
import { IMA_LIMITATION, ImaConnector } from './ima/ima-connector';
import { createYuqueConnector } from './yuque/yuque-connector';

export type ConnectorFactories = Partial<Record<Platform, ConnectorFactory>>;

/**
 * The production connectors. DingTalk connectors of one set share one Stream connection per app
 * (dingtalk/stream-hub.ts), opened only while a connector that needs it is alive.
 */
export function defaultConnectorFactories(): ConnectorFactories {
  return {
    folder: createFolderConnector,
    feishu: createFeishuConnector('feishu'),
    lark: createFeishuConnector('lark'),
    yuque: createYuqueConnector,
    dingtalk: createDingTalkConnector(new DingTalkStreamHub()),
    ima: (init) => new ImaConnector(init),
  };
}

export function createConnector(
  platform: Platform,
  init: ConnectorInit,
  factories: ConnectorFactories = defaultConnectorFactories(),
): Connector {
  const factory = factories[platform];
  if (!factory) throw new CairnError('UNSUPPORTED', `No connector for platform "${platform}" yet.`);
  return factory(init);
}

/**
 * What a connection cannot do, as its connector would say it, without building a connector
 * (listing connections must stay cheap). Config and secret names, never secret values, decide.
 */
export function connectionLimitation(
  platform: Platform,
  config: ConnectorInit['config'],
  secretFields: readonly string[],
): Limitation | null {
  switch (platform) {
    case 'feishu':
    case 'lark':
      return feishuLimitation(PLATFORM_INFO[platform].label.en, secretFields.includes('userRefreshToken'));
    case 'dingtalk':
      return streamEventsEnabled(config) &&
        secretFields.includes('appSecret') &&
        String(config.appKey ?? '').trim()
        ? DINGTALK_STREAM_LIMITATION
        : DINGTALK_NO_STREAM_LIMITATION;
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
