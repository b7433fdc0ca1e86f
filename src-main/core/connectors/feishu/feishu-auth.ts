/**
 * Feishu/Lark app credentials: the tenant_access_token from app id/secret, cached and renewed
 * before its 2 h expiry and on demand after an expiry code ("自建应用获取 tenant_access_token":
 * with 30 min or more left the same token comes back, below that a new one, both valid until they
 * expire). A wrong App Secret answers HTTP 200 with code 10014 and an unknown App ID 10003
 * (official CLI internal/credential/tat_fetch_test.go); both are AUTH_INVALID (feishu-api.ts).
 * The user side lives in feishu-user-session.ts.
 */
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { PlatformHttp } from '../http/platform-http';
import { parseResponse } from '../http/response-shape';
import { interpretFeishu } from './feishu-api';
import { TenantToken } from './feishu-schemas';

export interface FeishuTenantAuthOptions {
  http: PlatformHttp;
  label: string;
  appId: string;
  appSecret: string | undefined;
  logger: Logger;
  /** Renew a token this long before it expires. @default 300000 (5 min) */
  refreshMarginMs?: number;
}

const ENDPOINT = 'POST /open-apis/auth/v3/tenant_access_token/internal';

export class FeishuTenantAuth {
  private tenant: { value: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly options: FeishuTenantAuthOptions) {}

  async token(signal?: AbortSignal): Promise<string> {
    const margin = this.options.refreshMarginMs ?? 300_000;
    if (this.tenant && this.tenant.expiresAt - margin > Date.now()) return this.tenant.value;
    return this.renew(signal);
  }

  renew(signal?: AbortSignal): Promise<string> {
    this.pending ??= (async () => {
      try {
        const { appId, appSecret, label } = this.options;
        if (!appId || !appSecret)
          throw new CairnError('AUTH_INVALID', `The ${label} App ID or App Secret is missing.`);
        const answer = parseResponse(
          TenantToken,
          await this.options.http.request(
            {
              method: 'POST',
              path: '/open-apis/auth/v3/tenant_access_token/internal',
              body: { app_id: appId, app_secret: appSecret },
              signal,
            },
            interpretFeishu(ENDPOINT, label),
          ),
          { platform: label, endpoint: ENDPOINT },
        );
        this.tenant = { value: answer.tenant_access_token, expiresAt: Date.now() + answer.expire * 1000 };
        this.options.logger.debug('tenant access token renewed', { expiresInSeconds: answer.expire });
        return answer.tenant_access_token;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
