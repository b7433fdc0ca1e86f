/** The only module that names concrete connectors (STYLE.md §4): a table of their descriptors. */
import type { Platform } from '@shared/models';
import { CairnError } from '../errors';
import type {
  Connector,
  ConnectorDescriptor,
  ConnectorFactory,
  ConnectorInit,
  Limitation,
} from './connector';
import { dingTalkDescriptor } from './dingtalk/dingtalk-connector';
import { feishuDescriptor } from './feishu/feishu-connector';
import { folderDescriptor } from './folder/folder-connector';
import { imaDescriptor } from './ima/ima-connector';
import { yuqueDescriptor } from './yuque/yuque-connector';

export const CONNECTORS: Readonly<Record<Platform, ConnectorDescriptor>> = {
  folder: folderDescriptor,
  feishu: feishuDescriptor('feishu'),
  lark: feishuDescriptor('lark'),
  yuque: yuqueDescriptor,
  dingtalk: dingTalkDescriptor,
  ima: imaDescriptor,
};

export type ConnectorFactories = Partial<Record<Platform, ConnectorFactory>>;

/** The production factories of one app (connectors they build may share resources, e.g. DingTalk Stream). */
export function defaultConnectorFactories(): ConnectorFactories {
  return Object.fromEntries(
    Object.values(CONNECTORS).map((descriptor) => [descriptor.platform, descriptor.createFactory()]),
  );
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
  return CONNECTORS[platform]?.limitation(config, secretFields) ?? null;
}

/** Platforms whose connector offers a browser sign-in (`Connector.userSignIn`), known without building one. */
export function supportsUserSignIn(platform: Platform): boolean {
  return CONNECTORS[platform]?.userSignIn ?? false;
}
