/**
 * The two DingTalk hosts a connection talks to, derived from its region (docs/connectors.md
 * "DingTalk: hosts"): the new API (`api.` — token, wiki, documents, search, Stream gateway) and the
 * legacy API (`oapi.` — "Query user details", topapi/v2/user/get, for userId → unionId).
 * - Mainland: api.dingtalk.com / oapi.dingtalk.com [SDK aliyun/dingtalk-sdk endpoint
 *   "api.dingtalk.com"; DingTalk-Real-AI/dingtalk-workspace-cli apiclient LegacyBaseURL].
 * - International: api.dingtalk.io / oapi.dingtalk.io [DOC help.dingtalk.io pages, e.g. "Query block
 *   elements" (api.dingtalk.io) and "Obtain the userid … log-free" (oapi.dingtalk.io); the official
 *   CLI swaps `.dingtalk.com` for `.dingtalk.io` for its `--intl` login].
 * An explicit base URL on an `api.` host gives the `oapi.` host beside it; any other base URL (a
 * private gateway, a fake) serves the user API itself unless `oapiBaseUrl` names its host.
 */
import type { ConnectorInit } from '../connector';

export type DingTalkRegion = 'mainland' | 'international';

export const DINGTALK_HOSTS: Record<DingTalkRegion, { api: string; oapi: string }> = {
  mainland: { api: 'https://api.dingtalk.com', oapi: 'https://oapi.dingtalk.com' },
  international: { api: 'https://api.dingtalk.io', oapi: 'https://oapi.dingtalk.io' },
};

/** The connection's region: the international edition when its checkbox (`international`) is on. */
export function dingTalkRegion(config: ConnectorInit['config']): DingTalkRegion {
  return config.international === true || config.international === 'true' ? 'international' : 'mainland';
}

function trimmed(value: unknown): string {
  return String(value ?? '')
    .trim()
    .replace(/\/+$/, '');
}

/** Both hosts of a connection: see the file comment for the order of precedence. */
export function dingTalkHosts(config: ConnectorInit['config']): { api: string; oapi: string } {
  const region = DINGTALK_HOSTS[dingTalkRegion(config)];
  const baseUrl = trimmed(config.baseUrl);
  const api = baseUrl || region.api;
  const explicitOapi = trimmed(config.oapiBaseUrl);
  if (explicitOapi) return { api, oapi: explicitOapi };
  if (!baseUrl) return { api, oapi: region.oapi };
  const url = new URL(api);
  if (url.hostname.startsWith('api.')) url.hostname = `oapi.${url.hostname.slice('api.'.length)}`;
  return { api, oapi: url.origin };
}
