/**
 * The Feishu/Lark OAuth token endpoint: which one, and what its answers mean.
 *
 * Endpoint. The current pages document `https://accounts.feishu.cn/oauth/v3/token` and mark
 * `https://open.feishu.cn/open-apis/authen/v2/oauth/token` deprecated, with "the request parameters
 * and response structure remain the same as v2" ("Get user_access_token (v2)" and "Refresh
 * user_access_token (v2)", open.feishu.cn …/get-user-access-token.md and
 * …/refresh-user-access-token.md). Lark's pages document only the v2 path on open.larksuite.com;
 * the official Node SDK (larksuite/node-sdk client/access-token.ts, client-assertion.ts) posts JSON
 * to `{accounts.feishu.cn | accounts.larksuite.com}/oauth/v3/token`. Cairn posts JSON to v3 and
 * falls back to v2 only when v3 answers that it cannot serve the request: no such endpoint (HTTP
 * 404/405 without an OAuth body: a deployment without v3), or 20026 for a refresh token ("请注意本接口
 * 仅支持 v2 版本接口下发的 refresh_token", refresh page), i.e. a token the other version issued.
 *
 * Answers are flat (`{code, access_token, …}` or `{code, error, error_description}`); the codes
 * are those of the two pages' error tables.
 */
import { CairnError } from '../../errors';
import type { Interpretation, RawResponse } from '../http/platform-http';
import { UserTokenAnswer } from './feishu-schemas';
import { parseResponse } from '../http/response-shape';
import type { z } from 'zod';

export type TokenAnswer = z.infer<typeof UserTokenAnswer>;

/** Errors meaning "ask the deprecated endpoint instead". */
const USE_DEPRECATED = new WeakSet<CairnError>();
/** Errors meaning the stored refresh token is dead for good: only a new sign-in helps. */
const LOST_USER_AUTH = new WeakSet<CairnError>();

export function isUseDeprecated(error: unknown): boolean {
  return error instanceof CairnError && USE_DEPRECATED.has(error);
}

export function isLostUserAuth(error: unknown): boolean {
  return error instanceof CairnError && LOST_USER_AUTH.has(error);
}

const SIGN_IN_AGAIN =
  'Sign in again (the Sign in button on the connection, or `cairn authorize <connection>`).';

function marked(set: WeakSet<CairnError>, error: CairnError): CairnError {
  set.add(error);
  return error;
}

/** What a refused refresh means (refresh page error table). */
function refreshError(label: string, code: number, what: string): CairnError {
  switch (code) {
    case 20037: // refresh token expired (365 days after authorisation)
    case 20064: // revoked ("a refresh token can only be used once")
    case 20073: // already used: what a second refresh at the same time produces
      return marked(
        LOST_USER_AUTH,
        new CairnError(
          'AUTH_EXPIRED',
          `The ${label} user authorisation has expired, was revoked or its refresh token was already used (${what}). ${SIGN_IN_AGAIN}`,
        ),
      );
    case 20026:
      return marked(
        LOST_USER_AUTH,
        new CairnError(
          'AUTH_INVALID',
          `The stored ${label} user refresh token is not valid (${what}). ${SIGN_IN_AGAIN}`,
        ),
      );
    case 20074:
      return new CairnError(
        'PERMISSION_DENIED',
        `${label} does not allow this app to refresh user tokens (${what}). In the developer console, open Security settings (安全设置), turn on "Refresh user_access_token" (刷新 user_access_token), and publish a new app version.`,
      );
    case 20010:
      return new CairnError(
        'PERMISSION_DENIED',
        `Your ${label} account may not use this app (${what}). Ask the admin to add you to the app's availability.`,
      );
    case 20002:
    case 20024:
    case 20009:
    case 20048:
    case 20069:
      return new CairnError(
        'AUTH_INVALID',
        `${label} refused the app for the user token refresh (${what}): check the App Secret, and that the app exists, is enabled and installed in your organisation.`,
      );
    default:
      return new CairnError('AUTH_INVALID', `${label} refused the user token refresh (${what}).`);
  }
}

/**
 * Interprets an answer of either token endpoint. `deprecated` tells which one asked: at the
 * current one, "unsupported" answers become a fallback marker instead of an error.
 */
export function interpretOAuth(
  label: string,
  grant: 'refresh_token' | 'authorization_code',
  at: 'current' | 'deprecated',
  codeError: (label: string, code: number, what: string) => CairnError,
): (response: RawResponse) => Interpretation<TokenAnswer> {
  return (response) => {
    const body = response.json as
      { code?: unknown; error?: unknown; error_description?: unknown } | undefined;
    const hasBody = body !== undefined && body !== null && typeof body === 'object';
    // No such endpoint here: a deployment without v3.
    if (at === 'current' && (response.status === 404 || response.status === 405))
      return {
        kind: 'error',
        error: marked(
          USE_DEPRECATED,
          new CairnError('UNSUPPORTED', `${label} has no v3 token endpoint here (HTTP ${response.status}).`),
        ),
      };
    if (!hasBody) {
      if (response.status >= 500)
        return {
          kind: 'retry',
          code: 'SOURCE_ERROR',
          message: `${label} OAuth server error (HTTP ${response.status})`,
        };
      return {
        kind: 'error',
        error: new CairnError(
          'UNEXPECTED_RESPONSE',
          `${label} answered the OAuth token request with something that is not JSON (HTTP ${response.status}).`,
          {
            details: { platform: label, endpoint: 'POST oauth token', field: '(the whole body)' },
          },
        ),
      };
    }
    const code = typeof body.code === 'number' ? body.code : 0;
    if (code === 0 && !body.error)
      return {
        kind: 'ok',
        value: parseResponse(UserTokenAnswer, body, { platform: label, endpoint: 'POST oauth token' }),
      };
    const description = typeof body.error_description === 'string' ? body.error_description : '';
    const what = `code ${code}${description ? `: ${description}` : ''}`;
    if (code === 20050 || code === 20072 || response.status >= 500)
      return { kind: 'retry', code: 'SOURCE_ERROR', message: `${label} OAuth server error (${what})` };
    if (code === 99991400 || response.status === 429)
      return { kind: 'retry', code: 'RATE_LIMITED', message: `${label} OAuth rate limit (${what})` };
    if (at === 'current' && grant === 'refresh_token' && code === 20026)
      return {
        kind: 'error',
        error: marked(
          USE_DEPRECATED,
          new CairnError('AUTH_INVALID', `${label} v3 does not know this refresh token (${what}).`),
        ),
      };
    return {
      kind: 'error',
      error: grant === 'refresh_token' ? refreshError(label, code, what) : codeError(label, code, what),
    };
  };
}
