/**
 * Feishu/Lark credentials: the tenant_access_token from app id/secret (cached, renewed before its
 * 2 h expiry and on demand after an expiry code), and the user access token from the stored
 * refresh token. Refresh tokens rotate and are single-use (codes 20026/20037/20064/20073,
 * connectors.md §1.2), so every new refresh token is persisted through saveSecrets at once.
 */
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { Interpretation, PlatformHttp, RawResponse } from '../http/platform-http';
import { interpretFeishu } from './feishu-api';
import { interpretCodeExchange } from './feishu-sign-in';

export interface FeishuAuthOptions {
  http: PlatformHttp;
  label: string;
  appId: string;
  appSecret: string | undefined;
  /** Absolute URL of the OAuth token endpoint. */
  oauthTokenUrl: string;
  secrets: Record<string, string>;
  saveSecrets?: (secrets: Record<string, string>) => Promise<void>;
  /** Told when the refresh token is refused for good (expired, revoked, already used, invalid). */
  onUserAuthLost?: () => void;
  logger: Logger;
  /** Renew a token this long before it expires. @default 300000 (5 min) */
  refreshMarginMs?: number;
}

interface CachedToken {
  value: string;
  expiresAt: number;
}

const USER_AUTH_GONE = new Set([20037, 20064, 20073]);
/** Errors that mean the stored refresh token is dead for good: only a new sign-in helps. */
const LOST_USER_AUTH = new WeakSet<CairnError>();
const SIGN_IN_AGAIN =
  'Sign in again (the Sign in button on the connection, or `cairn authorize <connection>`).';

function lostUserAuth(code: 'AUTH_EXPIRED' | 'AUTH_INVALID', message: string): CairnError {
  const error = new CairnError(code, message);
  LOST_USER_AUTH.add(error);
  return error;
}

function interpretOAuth(
  label: string,
): (
  response: RawResponse,
) => Interpretation<{ access_token: string; expires_in?: number; refresh_token?: string }> {
  return (response) => {
    const body = response.json as
      { code?: number; access_token?: string; error?: string; error_description?: string } | undefined;
    if (!body) {
      if (response.status >= 500)
        return {
          kind: 'retry',
          code: 'SOURCE_ERROR',
          message: `${label} OAuth server error (HTTP ${response.status})`,
        };
      return {
        kind: 'error',
        error: new CairnError('SOURCE_ERROR', `${label} sent a malformed answer to the OAuth token request.`),
      };
    }
    if ((body.code === undefined || body.code === 0) && body.access_token)
      return { kind: 'ok', value: body as { access_token: string } };
    const code = body.code ?? 0;
    const what = `code ${code}${body.error_description ? ` (${body.error_description})` : ''}`;
    if (USER_AUTH_GONE.has(code))
      return {
        kind: 'error',
        error: lostUserAuth(
          'AUTH_EXPIRED',
          `The ${label} user authorisation has expired, was revoked or its refresh token was already used (${what}). ${SIGN_IN_AGAIN}`,
        ),
      };
    if (code === 20026)
      return {
        kind: 'error',
        error: lostUserAuth(
          'AUTH_INVALID',
          `The stored ${label} user refresh token is not valid (${what}). ${SIGN_IN_AGAIN}`,
        ),
      };
    if (code === 99991400 || response.status === 429)
      return { kind: 'retry', code: 'RATE_LIMITED', message: `${label} OAuth rate limit (${what})` };
    if (response.status >= 500)
      return { kind: 'retry', code: 'SOURCE_ERROR', message: `${label} OAuth server error (${what})` };
    return {
      kind: 'error',
      error: new CairnError(
        'AUTH_INVALID',
        `${label} refused the user token refresh (${what}). Check the App ID and App Secret.`,
      ),
    };
  };
}

export class FeishuAuth {
  private tenant: CachedToken | undefined;
  private user: CachedToken | undefined;
  private tenantPending: Promise<string> | undefined;
  private userPending: Promise<string> | undefined;
  private refreshToken: string | undefined;
  private readonly margin: number;

  constructor(private readonly options: FeishuAuthOptions) {
    this.refreshToken = options.secrets.userRefreshToken || undefined;
    this.margin = options.refreshMarginMs ?? 300_000;
  }

  get hasUserAuthorisation(): boolean {
    return this.refreshToken !== undefined;
  }

  async tenantToken(signal?: AbortSignal): Promise<string> {
    if (this.tenant && this.tenant.expiresAt - this.margin > Date.now()) return this.tenant.value;
    return this.renewTenant(signal);
  }

  /** Fetches a new tenant token (Feishu hands out a fresh one once under 30 min remain, or after the old one was invalidated). */
  renewTenant(signal?: AbortSignal): Promise<string> {
    this.tenantPending ??= (async () => {
      try {
        const { appId, appSecret, label } = this.options;
        if (!appId || !appSecret)
          throw new CairnError('AUTH_INVALID', `The ${label} App ID or App Secret is missing.`);
        const answer = await this.options.http.request(
          {
            method: 'POST',
            path: '/open-apis/auth/v3/tenant_access_token/internal',
            body: { app_id: appId, app_secret: appSecret },
            signal,
          },
          interpretFeishu<{ tenant_access_token: string; expire: number }>(
            'the tenant_access_token request',
            label,
          ),
        );
        this.tenant = { value: answer.tenant_access_token, expiresAt: Date.now() + answer.expire * 1000 };
        this.options.logger.debug('tenant access token renewed', { expiresInSeconds: answer.expire });
        return answer.tenant_access_token;
      } finally {
        this.tenantPending = undefined;
      }
    })();
    return this.tenantPending;
  }

  async userToken(signal?: AbortSignal): Promise<string> {
    if (this.user && this.user.expiresAt - this.margin > Date.now()) return this.user.value;
    return this.renewUser(signal);
  }

  /** Exchanges the refresh token for a user access token and persists the rotated refresh token. */
  renewUser(signal?: AbortSignal): Promise<string> {
    this.userPending ??= (async () => {
      try {
        const { label, appId, appSecret } = this.options;
        if (!this.refreshToken)
          throw new CairnError(
            'PERMISSION_DENIED',
            `${label} search and My Library need user authorisation: sign in with ${label} on this connection (or run \`cairn authorize <connection>\`).`,
          );
        const answer = await this.options.http
          .request(
            {
              method: 'POST',
              path: this.options.oauthTokenUrl,
              body: {
                grant_type: 'refresh_token',
                client_id: appId,
                client_secret: appSecret,
                refresh_token: this.refreshToken,
              },
              signal,
            },
            interpretOAuth(label),
          )
          .catch((error: unknown) => {
            if (error instanceof CairnError && LOST_USER_AUTH.has(error)) this.options.onUserAuthLost?.();
            throw error;
          });
        this.user = {
          value: answer.access_token,
          expiresAt: Date.now() + (answer.expires_in ?? 7200) * 1000,
        };
        if (answer.refresh_token && answer.refresh_token !== this.refreshToken) {
          this.refreshToken = answer.refresh_token;
          await this.persistRefreshToken(answer.refresh_token);
        }
        return answer.access_token;
      } finally {
        this.userPending = undefined;
      }
    })();
    return this.userPending;
  }

  /**
   * The sign-in's authorization_code grant (with the PKCE verifier) at the same endpoint the
   * refresh uses. Returns the refresh token to store; without offline_access there is none.
   */
  async exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier: string;
    signal?: AbortSignal;
  }): Promise<string> {
    const { label, appId, appSecret } = this.options;
    if (!appId || !appSecret)
      throw new CairnError('AUTH_INVALID', `The ${label} App ID or App Secret is missing.`);
    const answer = await this.options.http.request(
      {
        method: 'POST',
        path: this.options.oauthTokenUrl,
        body: {
          grant_type: 'authorization_code',
          client_id: appId,
          client_secret: appSecret,
          code: input.code,
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
        },
        signal: input.signal,
      },
      interpretCodeExchange(label),
    );
    if (!answer.refresh_token) {
      throw new CairnError(
        'PERMISSION_DENIED',
        `${label} signed you in but returned no refresh token, so Cairn could not stay signed in. Enable the offline_access scope for the app in the developer console, publish the app, then sign in again.`,
      );
    }
    this.refreshToken = answer.refresh_token;
    this.user = { value: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 7200) * 1000 };
    return answer.refresh_token;
  }

  private async persistRefreshToken(refreshToken: string): Promise<void> {
    if (!this.options.saveSecrets) {
      this.options.logger.warn(
        'rotated user refresh token cannot be persisted (no secret store); it is kept in memory only',
      );
      return;
    }
    try {
      await this.options.saveSecrets({ ...this.options.secrets, userRefreshToken: refreshToken });
    } catch (error) {
      // The old refresh token is already spent: keep working with the new one in memory and say so.
      this.options.logger.error(
        'could not persist the rotated user refresh token; re-authorise after restart if search stops working',
        { error: error instanceof Error ? error.message : String(error) },
      );
    }
  }
}
