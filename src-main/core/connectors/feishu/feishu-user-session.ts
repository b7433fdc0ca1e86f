/**
 * The user authorisation of one Feishu/Lark connection: its refresh token, the current user access
 * token, and ONE refresh at a time. Feishu refresh tokens are single-use and the previous one dies
 * at once ("原 refresh_token 立即失效"; the old access token keeps working one minute), so two refreshes
 * of the same token race to 20073 "already used" and sign the user out (refresh page). Every
 * connector of a connection (the sync, the direct-search connector, "Test connection") therefore
 * shares one session (FeishuUserSessions, kept by the connector factory), as the official CLI
 * serialises refreshes with a lock and re-reads the store first (larksuite/cli internal/auth/uat_client.go).
 */
import { CairnError } from '../../errors';
import type { Logger } from '../../logging/logger';
import type { PlatformHttp } from '../http/platform-http';
import { interpretOAuth, isLostUserAuth, isUseDeprecated, type TokenAnswer } from './feishu-oauth';
import { codeExchangeError } from './feishu-sign-in';

export interface TokenEndpoints {
  /** `{accounts}/oauth/v3/token`. */
  current: string;
  /** `{open}/open-apis/authen/v2/oauth/token`. */
  deprecated: string;
}

export interface SessionHooks {
  /** Store a rotated refresh token: replace `previous` with `next` (never over a value someone else stored). */
  rotate(previous: string, next: string): Promise<void>;
  /** The platform refused the refresh token for good. */
  lost(): void;
  logger: Logger;
}

export interface UserSessionConfig {
  http: PlatformHttp;
  label: string;
  appId: string;
  appSecret: string | undefined;
  endpoints: TokenEndpoints;
  /** Renew a token this long before it expires. @default 300000 */
  refreshMarginMs?: number;
}

export class FeishuUserSession {
  private refreshToken: string | undefined;
  /** Refresh tokens this session held before: a connector built with one of them is still this session. */
  private readonly previous = new Set<string>();
  private access: { value: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;
  /** Set once v3 answered "unsupported" and v2 worked. */
  private useDeprecated = false;
  private hooks: SessionHooks | undefined;

  constructor(
    private config: UserSessionConfig,
    refreshToken: string | undefined,
  ) {
    this.refreshToken = refreshToken || undefined;
  }

  get hasUserAuthorisation(): boolean {
    return this.refreshToken !== undefined;
  }

  /** The refresh token in use now (after any rotation). */
  get currentRefreshToken(): string | undefined {
    return this.refreshToken;
  }

  /** Whether a connector built with `refreshToken` belongs to this session (its own value or one it rotated away from). */
  knows(refreshToken: string | undefined): boolean {
    if (!refreshToken) return this.refreshToken === undefined;
    return refreshToken === this.refreshToken || this.previous.has(refreshToken);
  }

  /** The newest connector's settings and hooks are used from now on (same connection, maybe edited). */
  attach(config: UserSessionConfig, hooks: SessionHooks): void {
    this.config = config;
    this.hooks = hooks;
  }

  async accessToken(signal?: AbortSignal): Promise<string> {
    const margin = this.config.refreshMarginMs ?? 300_000;
    if (this.access && this.access.expiresAt - margin > Date.now()) return this.access.value;
    return this.renew(signal);
  }

  /**
   * Exchanges the refresh token once for every caller waiting now. `rejected` is the access token
   * the platform refused, when the caller knows it.
   */
  renew(signal?: AbortSignal, rejected?: string): Promise<string> {
    // Another request (of any connector of this connection) renewed since ours was refused: use
    // that token rather than spending the refresh token again.
    if (rejected !== undefined && this.access && this.access.value !== rejected)
      return Promise.resolve(this.access.value);
    this.pending ??= this.refresh(signal).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async refresh(signal?: AbortSignal): Promise<string> {
    const { label, appId, appSecret } = this.config;
    const spent = this.refreshToken;
    if (!spent)
      throw new CairnError(
        'PERMISSION_DENIED',
        `${label} search and My Library need user authorisation: sign in with ${label} on this connection (or run \`cairn authorize <connection>\`).`,
      );
    const body = {
      grant_type: 'refresh_token',
      client_id: appId,
      client_secret: appSecret,
      refresh_token: spent,
    };
    let answer: TokenAnswer;
    try {
      answer = await this.post('refresh_token', body, signal);
    } catch (error) {
      if (isLostUserAuth(error)) this.hooks?.lost();
      throw error;
    }
    this.access = { value: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 7200) * 1000 };
    if (answer.refresh_token && answer.refresh_token !== spent) {
      this.previous.add(spent);
      this.refreshToken = answer.refresh_token;
      await this.persist(spent, answer.refresh_token);
    }
    return answer.access_token;
  }

  /** The sign-in's authorization_code grant (with the PKCE verifier); returns the refresh token to store. */
  async exchangeCode(input: {
    code: string;
    redirectUri: string;
    codeVerifier: string;
    signal?: AbortSignal;
  }): Promise<string> {
    const { label, appId, appSecret } = this.config;
    if (!appId || !appSecret)
      throw new CairnError('AUTH_INVALID', `The ${label} App ID or App Secret is missing.`);
    const answer = await this.post(
      'authorization_code',
      {
        grant_type: 'authorization_code',
        client_id: appId,
        client_secret: appSecret,
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      },
      input.signal,
    );
    if (!answer.refresh_token)
      throw new CairnError(
        'PERMISSION_DENIED',
        `${label} signed you in but returned no refresh token, so Cairn could not stay signed in. Enable the offline_access scope for the app in the developer console, publish the app, then sign in again.`,
      );
    if (this.refreshToken) this.previous.add(this.refreshToken);
    this.refreshToken = answer.refresh_token;
    this.access = { value: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 7200) * 1000 };
    return answer.refresh_token;
  }

  /** POST to the current endpoint, or to the deprecated one when the current one cannot serve it. */
  private async post(
    grant: 'refresh_token' | 'authorization_code',
    body: Record<string, string | undefined>,
    signal: AbortSignal | undefined,
  ): Promise<TokenAnswer> {
    const { http, label, endpoints } = this.config;
    const ask = (at: 'current' | 'deprecated') =>
      http.request(
        { method: 'POST', path: at === 'current' ? endpoints.current : endpoints.deprecated, body, signal },
        interpretOAuth(label, grant, at, codeExchangeError),
      );
    if (this.useDeprecated) return ask('deprecated');
    try {
      return await ask('current');
    } catch (error) {
      if (!isUseDeprecated(error)) throw error;
      this.hooks?.logger.info('the v3 token endpoint cannot serve this request; using the v2 endpoint', {
        reason: (error as CairnError).message,
      });
      const answer = await ask('deprecated');
      this.useDeprecated = true;
      return answer;
    }
  }

  private async persist(previous: string, next: string): Promise<void> {
    if (!this.hooks) return;
    try {
      await this.hooks.rotate(previous, next);
    } catch (error) {
      // The old refresh token is already spent: keep working with the new one in memory and say so.
      this.hooks.logger.error(
        'could not persist the rotated user refresh token; re-authorise after restart if search stops working',
        { error: error instanceof Error ? error.message : String(error) },
      );
    }
  }
}

/**
 * One session per connection, shared by every connector the factory builds for it. A connector
 * built with a refresh token the session never held (a new sign-in, an edit) starts a new session.
 */
export class FeishuUserSessions {
  private readonly sessions = new Map<string, FeishuUserSession>();

  for(
    connectionId: string | undefined,
    config: UserSessionConfig,
    refreshToken: string | undefined,
  ): FeishuUserSession {
    if (connectionId === undefined) return new FeishuUserSession(config, refreshToken);
    const known = this.sessions.get(connectionId);
    if (known?.knows(refreshToken)) return known;
    const fresh = new FeishuUserSession(config, refreshToken);
    this.sessions.set(connectionId, fresh);
    return fresh;
  }

  get size(): number {
    return this.sessions.size;
  }
}
