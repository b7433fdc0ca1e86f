/**
 * Token issuing and checking for the Feishu/Lark fake: tenant_access_token from app id/secret
 * (same token while ≥ 30 min remain; HTTP 200 with 10014 for a wrong secret and 10003 for an
 * unknown app id, as the official CLI's tests record), user tokens from the sign-in's authorization
 * code (feishu-code-grant-fake.ts checks the code) and from single-use rotating refresh tokens: the
 * previous refresh token dies at once, the previous access token one minute after the refresh
 * (refresh page), 20026/20037/20064/20073/20074 as that page lists them. The v3 and the deprecated
 * v2 endpoint share one token pool here (whether real tokens cross versions is [U]); `v3: false`
 * imitates a deployment without v3 (404). A user token carries the scopes of its sign-in (the
 * authorize page's `scope`, kept across refreshes of that chain; the fixture's first refresh token
 * has `userScopes`), so the fake can refuse a call its sign-in did not grant. Split from
 * feishu-fake.ts to keep one concern per file.
 */
import { randomBytes } from 'node:crypto';
import type { FakeRequest, FakeResponse } from './fake-server';
import { FeishuCodeGrantFake } from './feishu-code-grant-fake';

export interface FeishuAuthOptions {
  appId: string;
  appSecret: string;
  userRefreshToken: string;
  tokenTtlSeconds: number;
  /** The scopes of the fixture's first refresh token (space-separated). */
  userScopes: string;
}

/** What the developer console allows, and which refresh tokens were revoked. */
export interface FeishuAuthSwitches {
  /** "刷新 user_access_token" under Security settings; off → 20074. */
  refreshAllowed: boolean;
  /** Serve /oauth/v3/token (false: 404, a deployment with only v2). */
  v3: boolean;
}

/** After a refresh the old user access token keeps working this long (refresh page: 一分钟的豁免时间). */
const GRACE_MS = 60_000;

export type Caller = { kind: 'tenant' } | { kind: 'user'; scopes: ReadonlySet<string> };

const REUSE_WINDOW_MS = 30 * 60_000;

function envelope(
  status: number,
  code: number,
  msg: string,
  extra: Record<string, unknown> = {},
): FakeResponse {
  return { status, body: { code, msg, ...extra } };
}

export class FeishuAuthFake {
  private readonly tenantTokens = new Map<string, number>(); // token → expiry ms
  private readonly userTokens = new Map<string, number>();
  private readonly refreshTokens = new Map<string, 'fresh' | 'used' | 'expired' | 'revoked'>();
  /** refresh token → the access token issued with it (to end its grace after the next refresh). */
  private readonly accessOf = new Map<string, string>();
  /** Scopes granted at sign-in, per access token and per refresh token (a refresh keeps them). */
  private readonly scopesOf = new Map<string, string>();
  private currentRefresh: string;
  readonly switches: FeishuAuthSwitches = { refreshAllowed: true, v3: true };
  /** The authorize page and the authorization_code checks. */
  readonly codeGrant: FeishuCodeGrantFake;

  constructor(private readonly options: FeishuAuthOptions) {
    this.currentRefresh = options.userRefreshToken;
    this.refreshTokens.set(options.userRefreshToken, 'fresh');
    this.scopesOf.set(options.userRefreshToken, options.userScopes);
    this.codeGrant = new FeishuCodeGrantFake(options.appId);
  }

  /** The refresh token a well-behaved client must hold now (after rotation). */
  get latestRefreshToken(): string {
    return this.currentRefresh;
  }

  /** Every issued access token stops working (the "token expiry mid-sync" fault). */
  expireAccessTokens(): void {
    for (const map of [this.tenantTokens, this.userTokens]) for (const token of map.keys()) map.set(token, 0);
  }

  /** Every refresh token issued so far is past its lifetime (a new sign-in starts a fresh chain). */
  expireRefreshTokens(): void {
    for (const [token, state] of this.refreshTokens)
      if (state === 'fresh') this.refreshTokens.set(token, 'expired');
  }

  /** The current refresh token answers 20064 (revoked) from now on. */
  revokeRefreshToken(): void {
    this.refreshTokens.set(this.currentRefresh, 'revoked');
  }

  tenantToken(request: FakeRequest): FakeResponse {
    const body = (request.body ?? {}) as { app_id?: string; app_secret?: string };
    if (body.app_id !== this.options.appId) return envelope(200, 10003, 'invalid param');
    if (body.app_secret !== this.options.appSecret) return envelope(200, 10014, 'app secret invalid');
    const now = Date.now();
    const reusable = [...this.tenantTokens].find(([, expiry]) => expiry - now >= REUSE_WINDOW_MS);
    if (reusable)
      return envelope(200, 0, 'ok', {
        tenant_access_token: reusable[0],
        expire: Math.floor((reusable[1] - now) / 1000),
      });
    const token = `t-${randomBytes(16).toString('hex')}`;
    this.tenantTokens.set(token, now + this.options.tokenTtlSeconds * 1000);
    return envelope(200, 0, 'ok', { tenant_access_token: token, expire: this.options.tokenTtlSeconds });
  }

  /** OAuth token endpoint: grant_type=authorization_code (sign-in) or refresh_token (rotates the single-use refresh token). */
  userToken(request: FakeRequest, version: 'v3' | 'v2'): FakeResponse {
    if (version === 'v3' && !this.switches.v3) return { status: 404, raw: '404 page not found' };
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    const oauthError = (code: number, error: string, description: string) => ({
      status: 400,
      body: { code, error, error_description: description },
    });
    if (request.headers.authorization?.startsWith('Basic ') && body.client_secret)
      return oauthError(20070, 'invalid_request', 'client authentication must use one method, not both');
    if (body.grant_type !== 'refresh_token' && body.grant_type !== 'authorization_code')
      return oauthError(20036, 'unsupported_grant_type', 'The specified grant_type is not supported.');
    if (body.client_id !== this.options.appId || body.client_secret !== this.options.appSecret)
      return oauthError(20002, 'invalid_client', 'The client secret is invalid.');
    if (body.grant_type === 'authorization_code') {
      const redeemed = this.codeGrant.redeem(body);
      // Each sign-in starts a new refresh-token chain; the previous one stays valid until used or expired.
      return redeemed.ok ? this.issueUserTokens(redeemed.scope) : redeemed.response;
    }
    if (!this.switches.refreshAllowed)
      return oauthError(20074, 'unauthorized_client', 'The specified app is not allowed to refresh token.');
    const state = body.refresh_token ? this.refreshTokens.get(body.refresh_token) : undefined;
    if (!state) return oauthError(20026, 'invalid_grant', 'refresh token is invalid');
    if (state === 'used') return oauthError(20073, 'invalid_grant', 'The refresh token has been used.');
    if (state === 'revoked')
      return oauthError(
        20064,
        'invalid_grant',
        'The refresh token has been revoked. Please note that a refresh token can only be used once.',
      );
    if (state === 'expired') return oauthError(20037, 'invalid_grant', 'refresh token has expired');
    this.refreshTokens.set(body.refresh_token!, 'used');
    // The access token issued with the spent refresh token works one more minute.
    const old = this.accessOf.get(body.refresh_token!);
    const expiry = old ? this.userTokens.get(old) : undefined;
    if (old && expiry !== undefined) this.userTokens.set(old, Math.min(expiry, Date.now() + GRACE_MS));
    return this.issueUserTokens(this.scopesOf.get(body.refresh_token!) ?? '');
  }

  /** Ends every grace period at once (a test that must not wait a minute). */
  endGracePeriods(): void {
    const now = Date.now();
    for (const [token, expiry] of this.userTokens)
      if (expiry - now <= GRACE_MS) this.userTokens.set(token, 0);
  }

  private issueUserTokens(scope: string): FakeResponse {
    const access = `u-${randomBytes(16).toString('hex')}`;
    this.userTokens.set(access, Date.now() + this.options.tokenTtlSeconds * 1000);
    this.scopesOf.set(access, scope);
    // refresh_token only with offline_access, as the get-user-access-token page says.
    const offline = scope.split(' ').includes('offline_access');
    if (offline) {
      this.currentRefresh = `ur-${randomBytes(16).toString('hex')}`;
      this.refreshTokens.set(this.currentRefresh, 'fresh');
      this.accessOf.set(this.currentRefresh, access);
      this.scopesOf.set(this.currentRefresh, scope);
    }
    return {
      status: 200,
      body: {
        code: 0,
        access_token: access,
        expires_in: this.options.tokenTtlSeconds,
        ...(offline ? { refresh_token: this.currentRefresh, refresh_token_expires_in: 2_592_000 } : {}),
        token_type: 'Bearer',
        scope,
      },
    };
  }

  /** Checks the Bearer token; returns who is calling or the platform's error envelope. */
  authenticate(request: FakeRequest): Caller | FakeResponse {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Bearer '))
      return envelope(
        400,
        99991661,
        'Missing access token for Authorization. Please make a request with token attached.',
      );
    const token = header.slice('Bearer '.length);
    const now = Date.now();
    const tenant = this.tenantTokens.get(token);
    if (tenant !== undefined)
      return tenant > now
        ? { kind: 'tenant' }
        : envelope(
            400,
            99991663,
            'Invalid access token for authorization. Please make a request with token attached.',
          );
    const user = this.userTokens.get(token);
    if (user !== undefined)
      return user > now
        ? { kind: 'user', scopes: new Set((this.scopesOf.get(token) ?? '').split(' ').filter(Boolean)) }
        : envelope(400, 99991677, 'user access token expired, please refresh it');
    if (token.startsWith('u-')) return envelope(400, 99991668, 'user access token is invalid');
    return envelope(
      400,
      99991663,
      'Invalid access token for authorization. Please make a request with token attached.',
    );
  }
}
