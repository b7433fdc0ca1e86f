/**
 * HTTP access to DingTalk's new API (api.dingtalk.com / .io) and its legacy user API (oapi.): the
 * app access token (fetched, refreshed before expiry and once after a 401), the
 * `x-acs-dingtalk-access-token` header, and DingTalk's error signals turned into Cairn codes, a
 * refused permission named (docs/connectors.md "DingTalk").
 */
import { CairnError } from '../../errors';
import { DINGTALK_STEPS, requiredScopes, type DingTalkStep } from './dingtalk-permissions';
import { parseBody, UserDetails } from './dingtalk-schemas';
import type { Logger } from '../../logging/logger';
import {
  PlatformHttp,
  type HttpRequest,
  type Interpretation,
  type PlatformHttpOptions,
  type RawResponse,
} from '../http/platform-http';

export type HttpTuning = Partial<
  Pick<
    PlatformHttpOptions,
    'rate' | 'concurrency' | 'timeoutMs' | 'maxRetries' | 'backoffBaseMs' | 'backoffMaxMs' | 'fetchImpl'
  >
>;

export interface DingTalkClientOptions {
  /** The new API's host (dingtalk-hosts.ts). */
  baseUrl: string;
  /** The legacy API host of "Query user details" (topapi), derived with the base URL (dingtalk-hosts.ts). */
  oapiBaseUrl: string;
  appKey: string;
  appSecret: string;
  logger: Logger;
  http?: HttpTuning;
  /** Pause after a QPS-limit answer; DingTalk's throttling doc says to wait about a second. @default 1000 */
  rateLimitWaitMs?: number;
  /** @default Date.now */
  now?: () => number;
}

interface ErrorBody {
  code?: string;
  message?: string;
  requestid?: string;
  status?: number;
  punish?: string;
}

/**
 * A refused permission, in words that say what to fix: the permission DingTalk named, else the one the
 * step's official page names, else only that DingTalk refused. `details` carry the reason and the
 * permission codes for the UI (`errorReason.dingtalk.missing-permission`).
 */
function permissionDenied(body: unknown, detail: string, step: DingTalkStep | undefined): CairnError {
  const named = requiredScopes(body);
  const doing = step ? ` to ${step.what}` : '';
  // DingTalk's own message here is a generic "no permission, see <guide>": the code and request id say enough.
  const { code, requestid } = (body ?? {}) as ErrorBody;
  const short = `${code ?? 'HTTP 403'}${requestid ? `, requestid ${requestid}` : ''}`;
  if (named.length > 0)
    return new CairnError(
      'PERMISSION_DENIED',
      `The DingTalk app lacks the permission ${named.join(', ')} needed${doing} (${short}). Add it under Permissions (权限管理) in the developer console; an admin may have to authorise it again.`,
      { details: { reason: 'dingtalk.missing-permission', params: { permissions: named.join(', ') } } },
    );
  if (step?.permission)
    return new CairnError(
      'PERMISSION_DENIED',
      `DingTalk refused${doing} (${detail}). This step needs the app permission ${step.permission} (developer console → Permissions), and the user (operatorId) must be able to see the content.`,
      {
        details: { reason: 'dingtalk.missing-permission', params: { permissions: step.permission } },
      },
    );
  return new CairnError(
    'PERMISSION_DENIED',
    `DingTalk denied access${doing} (${detail}). Check the app's permissions and that operatorId belongs to a member who can see this content.`,
  );
}

/**
 * Turns a DingTalk answer into ok / retry / refresh / error; `step` says what the request was for,
 * so a refused permission is named. Exported for tests.
 */
export function interpretDingTalk(
  response: RawResponse,
  rateLimitWaitMs: number,
  step?: DingTalkStep,
): Interpretation<unknown> {
  const body = (response.json ?? {}) as ErrorBody;
  const code = typeof body.code === 'string' ? body.code : '';
  const detail = `${code || `HTTP ${response.status}`}${body.message ? `: ${body.message}` : ''}${body.requestid ? ` (requestid ${body.requestid})` : ''}`;
  // Per-IP limit: DingTalk "returns an HTML page" ("Call frequency limit" help page); a copy of that
  // page shows {status:1111, wait:5, punish:"deny"}. The block lasts minutes: the sync defers the rest.
  if (
    body.punish === 'deny' ||
    body.status === 1111 ||
    (response.json === undefined && /punish/i.test(response.text))
  ) {
    return {
      kind: 'error',
      error: new CairnError(
        'RATE_LIMITED',
        'DingTalk has blocked this IP for a few minutes after too many calls; Cairn carries on at the next sync.',
      ),
    };
  }
  // The organisation's monthly API allowance is spent ("本月api调用量已超过限制"): nothing helps until next month.
  if (code === 'Forbidden.AccessDenied.ApiCountLimitForOrg' || Number(code) === 90020)
    return {
      kind: 'error',
      error: new CairnError(
        'QUOTA_EXCEEDED',
        `DingTalk says this organisation's monthly API allowance is used up (${detail}); the remaining documents wait for a later sync.`,
      ),
    };
  if (response.status >= 200 && response.status < 300) {
    if (response.json === undefined)
      return {
        kind: 'retry',
        code: 'SOURCE_ERROR',
        message: 'DingTalk returned a response that is not valid JSON.',
      };
    return { kind: 'ok', value: response.json };
  }
  if (response.status === 401 || code === 'InvalidAuthentication')
    return {
      kind: 'refresh-auth',
      code: 'AUTH_EXPIRED',
      message: `DingTalk rejected the access token (${detail}).`,
    };
  if (code.startsWith('Forbidden.AccessDenied.QpsLimit')) {
    const jitter = rateLimitWaitMs * 0.2 * Math.random();
    return {
      kind: 'retry',
      code: 'RATE_LIMITED',
      message: `DingTalk rate limit reached (${detail}).`,
      afterMs: rateLimitWaitMs + jitter,
    };
  }
  if (response.status === 403 || code.startsWith('Forbidden'))
    return { kind: 'error', error: permissionDenied(response.json, detail, step) };
  if (code === 'MissingoperatorId')
    return {
      kind: 'error',
      error: new CairnError(
        'INVALID_ARGUMENT',
        `DingTalk needs operatorId (the user's unionId) in the connection settings (${detail}).`,
      ),
    };
  if (response.status === 404)
    return {
      kind: 'error',
      error: new CairnError('NOT_FOUND', `DingTalk says it does not exist (${detail}).`),
    };
  if (response.status === 429 || response.status >= 500)
    return {
      kind: 'retry',
      code: response.status === 429 ? 'RATE_LIMITED' : 'SOURCE_ERROR',
      message: `DingTalk server error (${detail}).`,
    };
  return {
    kind: 'error',
    error: new CairnError('SOURCE_ERROR', `DingTalk refused the request (${detail}).`),
  };
}

/** Any refusal from the token endpoint (other than throttling) means the app key or secret is wrong. */
function interpretTokenResponse(response: RawResponse, rateLimitWaitMs: number): Interpretation<unknown> {
  const verdict = interpretDingTalk(response, rateLimitWaitMs);
  if (verdict.kind === 'ok' || verdict.kind === 'retry') return verdict;
  if (verdict.kind === 'error' && verdict.error.code === 'RATE_LIMITED') return verdict;
  const code = (response.json as ErrorBody | undefined)?.code ?? `HTTP ${response.status}`;
  return {
    kind: 'error',
    error: new CairnError('AUTH_INVALID', `DingTalk rejected the app key or app secret (${code}).`),
  };
}

export class DingTalkClient {
  private readonly api: PlatformHttp;
  /** No auth headers: the token endpoint and signed download links (which must never receive our token). */
  private readonly plain: PlatformHttp;
  private readonly options: DingTalkClientOptions;
  private readonly now: () => number;
  private token: { value: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(options: DingTalkClientOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    // Standard edition allows 20 QPS per app per API (connectors.md §3.4); stay under it.
    const common = {
      baseUrl: options.baseUrl,
      logger: options.logger,
      rate: { intervalMs: 1000, intervalCap: 15 },
      ...options.http,
    };
    this.api = new PlatformHttp({
      ...common,
      authHeaders: async (signal) => ({ 'x-acs-dingtalk-access-token': await this.accessToken(signal) }),
      refreshAuth: (signal) => this.refresh(signal),
    });
    this.plain = new PlatformHttp(common);
  }

  /**
   * The unionId of an organisation user (what every wiki/doc call's operatorId needs) from the
   * userId the admin console shows: POST {oapi}/topapi/v2/user/get?access_token=… {userid}
   * ("Query user details", permission qyapi_get_member; the app must see the user in its contact
   * range). The same app token works there (FastGPT and WeKnora do this) [third-party].
   */
  async unionIdOf(userId: string, signal?: AbortSignal): Promise<string> {
    const oapi = this.options.oapiBaseUrl.replace(/\/+$/, '');
    const ask = async () =>
      this.plain.request<unknown>(
        {
          method: 'POST',
          path: `${oapi}/topapi/v2/user/get`,
          query: { access_token: await this.accessToken(signal) },
          body: { userid: userId, language: 'zh_CN' },
          signal,
        },
        (res) => {
          if (res.status >= 500)
            return {
              kind: 'retry',
              code: 'SOURCE_ERROR',
              message: `DingTalk server error (HTTP ${res.status}).`,
            };
          // The legacy API answers with an errcode; an answer without one means this host does not serve it.
          if (typeof (res.json as { errcode?: unknown } | undefined)?.errcode !== 'number')
            return {
              kind: 'error',
              error: new CairnError(
                'SOURCE_ERROR',
                `DingTalk's user API ("Query user details") did not answer at ${oapi} (HTTP ${res.status}). It lives on the oapi. host beside the API host; for a private deployment, set the Legacy API URL (--oapi-base-url).`,
              ),
            };
          return { kind: 'ok', value: res.json };
        },
      );
    let answer = parseBody(UserDetails, await ask(), 'POST /topapi/v2/user/get');
    // 40014 invalid / 42001 expired access_token [third-party]: fetch a new token once.
    if (answer.errcode === 40014 || answer.errcode === 42001) {
      await this.refresh(signal);
      answer = parseBody(UserDetails, await ask(), 'POST /topapi/v2/user/get');
    }
    // The legacy API's own limit codes: 90020 monthly allowance ("API调用量超过限额" help page), 90002/90018 frequency.
    if (answer.errcode === 90020)
      throw new CairnError(
        'QUOTA_EXCEEDED',
        `DingTalk says this organisation's monthly API allowance is used up (errcode 90020).`,
      );
    if (answer.errcode === 90002 || answer.errcode === 90018)
      throw new CairnError('RATE_LIMITED', `DingTalk asked Cairn to slow down (errcode ${answer.errcode}).`);
    if (answer.errcode !== 0) {
      const denied = answer.errcode === 60011 || answer.errcode === 60020;
      const permission = DINGTALK_STEPS.userLookup.permission;
      throw new CairnError(
        denied ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT',
        `DingTalk could not look up user "${userId}" (errcode ${answer.errcode}${answer.errmsg ? `: ${answer.errmsg}` : ''}). Check the userId (the admin console's 员工 UserID), that the app has the ${permission} permission, and that the user is inside the app's contact range (通讯录可见范围).`,
        denied
          ? { details: { reason: 'dingtalk.missing-permission', params: { permissions: permission } } }
          : {},
      );
    }
    const unionId = answer.result?.unionid;
    if (!unionId)
      throw new CairnError(
        'UNEXPECTED_RESPONSE',
        'DingTalk answered POST /topapi/v2/user/get in a shape Cairn does not know: field "result.unionid" is missing.',
        { details: { platform: 'DingTalk', endpoint: 'POST /topapi/v2/user/get', field: 'result.unionid' } },
      );
    return unionId;
  }

  /** One call of the new API; `step` names what it is for, so a refusal names the permission. */
  request<T>(request: HttpRequest, step?: DingTalkStep): Promise<T> {
    return this.api.request(request, (res) =>
      interpretDingTalk(res, this.options.rateLimitWaitMs ?? 1000, step),
    ) as Promise<T>;
  }

  /** The current token, fetching a new one when none is held or it is within its refresh margin. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt) return this.token.value;
    this.pending ??= this.fetchToken(signal).finally(() => (this.pending = null));
    return this.pending;
  }

  /**
   * Called after a 401: drops the token and fetches a new one. Concurrent callers share one
   * refresh; PlatformHttp allows each request a single refresh, so this cannot loop.
   */
  async refresh(signal?: AbortSignal): Promise<void> {
    if (!this.pending) this.token = null;
    await this.accessToken(signal);
  }

  private async fetchToken(signal?: AbortSignal): Promise<string> {
    if (!this.options.appKey || !this.options.appSecret)
      throw new CairnError('INVALID_ARGUMENT', 'DingTalk needs an app key and an app secret.');
    const waitMs = this.options.rateLimitWaitMs ?? 1000;
    const request: HttpRequest = {
      method: 'POST',
      path: '/v1.0/oauth2/accessToken',
      body: { appKey: this.options.appKey, appSecret: this.options.appSecret },
      signal,
    };
    const body = await this.plain.request<unknown>(request, (res) => interpretTokenResponse(res, waitMs));
    const { accessToken, expireIn } = (body ?? {}) as { accessToken?: unknown; expireIn?: unknown };
    if (typeof accessToken !== 'string' || !accessToken)
      throw new CairnError('SOURCE_ERROR', 'DingTalk returned no access token.');
    const lifetimeMs = (typeof expireIn === 'number' && expireIn > 0 ? expireIn : 7200) * 1000;
    // Refresh a little before expiry so no call goes out with a dying token: 5 minutes, or a tenth of a short lifetime.
    const marginMs = Math.min(300_000, lifetimeMs / 10);
    this.token = { value: accessToken, expiresAt: this.now() + lifetimeMs - marginMs };
    this.options.logger.debug('DingTalk access token obtained', {
      expiresInSeconds: Math.round(lifetimeMs / 1000),
    });
    return accessToken;
  }

  /**
   * Downloads a signed export link. The query goes separately so that retry logs name only the
   * host and path, never the signature.
   */
  async download(link: string, signal?: AbortSignal): Promise<string> {
    const url = new URL(link);
    const query = Object.fromEntries(url.searchParams);
    return this.plain.request(
      { path: `${url.origin}${url.pathname}`, query, signal, headers: { accept: '*/*' } },
      (res) => {
        if (res.status >= 200 && res.status < 300) return { kind: 'ok', value: res.text };
        if (res.status === 403)
          return {
            kind: 'error',
            error: new CairnError(
              'SOURCE_ERROR',
              'The DingTalk export link was refused (expired or invalid signature).',
            ),
          };
        if (res.status === 404)
          return { kind: 'error', error: new CairnError('NOT_FOUND', 'The DingTalk export file is gone.') };
        return {
          kind: 'retry',
          code: 'SOURCE_ERROR',
          message: `Downloading the DingTalk export failed (HTTP ${res.status}).`,
        };
      },
    );
  }

  clear(): void {
    this.api.clear();
    this.plain.clear();
  }
}
