/**
 * Feishu/Lark user sign-in: the authorize page and the authorization-code exchange
 * (docs/connectors.md "User sign-in"; evidence and what stays unverified are listed there).
 *
 * - Authorize page: GET <accounts host>/open-apis/authen/v1/authorize with client_id,
 *   response_type=code, redirect_uri, scope (space-separated; offline_access so a refresh token
 *   comes back), state, code_challenge, code_challenge_method=S256.
 *   https://open.feishu.cn/document/authentication-management/access-token/obtain-oauth-code
 * - Token: POST the same token endpoint the refresh uses (feishu-auth.ts `oauthTokenUrl`), because
 *   a refresh token is only accepted by the endpoint version that issued it (20026, refresh page).
 *   https://open.feishu.cn/document/authentication-management/access-token/get-user-access-token
 */
import { FEISHU_SIGN_IN_DEFAULT_PORT, FEISHU_SIGN_IN_DEFAULT_SCOPES } from '@shared/platforms';
import { CairnError } from '../../errors';

/** The authorize page takes at most 50 scopes (obtain-oauth-code page, `scope` parameter). */
const MAX_SCOPES = 50;

/**
 * Feishu scope names are letters, digits and `_ . : -` (e.g. `docs:document.content:read`); RFC 6749
 * §3.3 allows more, but a comma or a quote here is a typo, not a scope Feishu has.
 */
const SCOPE_NAME = /^[A-Za-z0-9_.:-]+$/;

/** What is wrong with an `oauthScopes` value, or null. Scopes are separated by spaces. */
export function scopeListProblem(value: string): string | null {
  const tokens = value.trim().split(/\s+/).filter(Boolean);
  const bad = tokens.find((token) => !SCOPE_NAME.test(token));
  if (bad !== undefined)
    return `oauthScopes: "${bad}" is not a scope name (separate scopes with spaces, e.g. "search:docs:read wiki:wiki:readonly")`;
  const count = new Set([...tokens, 'offline_access']).size;
  if (count > MAX_SCOPES)
    return `oauthScopes: ${count} scopes with offline_access, but the sign-in page takes at most ${MAX_SCOPES}`;
  return null;
}

/**
 * Feishu accepts only redirect URLs registered in the app's security settings, matched exactly
 * (error 20029 otherwise), and documents no "any loopback port" rule (RFC 8252 §7.3 asks for one,
 * Feishu's own MCP guide registers a fixed http://localhost:3000/callback). So Cairn listens on a
 * fixed port by default; `redirectPort` in the connection config overrides it.
 */
export const FEISHU_DEFAULT_REDIRECT_PORT = FEISHU_SIGN_IN_DEFAULT_PORT;

export interface FeishuTokenAnswer {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  scope?: string;
}

export function feishuAuthorizeUrl(input: {
  accountsBaseUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
}): string {
  // The page asks for URL-encoded parameters; URLSearchParams encodes them (and the space-separated scope list).
  const url = new URL(`${input.accountsBaseUrl.replace(/\/+$/, '')}/open-apis/authen/v1/authorize`);
  url.search = new URLSearchParams({
    client_id: input.clientId,
    response_type: 'code',
    redirect_uri: input.redirectUri,
    scope: input.scopes.join(' '),
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/**
 * The scopes asked for at sign-in: the connection's `oauthScopes` (space-separated; commas from
 * configs written before it was checked are tolerated) or FEISHU_SIGN_IN_DEFAULT_SCOPES ([S]:
 * larksuite/cli scope lists), always with offline_access, which is what returns a refresh token.
 * Each must be enabled for the app in the developer console, or the authorize page shows 20027.
 */
export function signInScopes(configured: string | number | boolean | undefined): string[] {
  const listed = typeof configured === 'string' ? configured.split(/[\s,]+/).filter(Boolean) : [];
  const scopes = [...new Set(listed.length > 0 ? listed : FEISHU_SIGN_IN_DEFAULT_SCOPES)];
  return scopes.includes('offline_access') ? scopes : ['offline_access', ...scopes];
}

/** A port from config, or the default; 0 (any free port) is for fakes that accept any redirect. */
export function signInPort(configured: string | number | boolean | undefined): number {
  if (configured === undefined || configured === '') return FEISHU_DEFAULT_REDIRECT_PORT;
  const port = Number(configured);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CairnError(
      'INVALID_ARGUMENT',
      `The sign-in port "${String(configured)}" is not a port number (1-65535).`,
    );
  return port;
}

/** Error codes of the authorization_code grant (get-user-access-token page, "错误码"). */
export function codeExchangeError(label: string, code: number, what: string): CairnError {
  switch (code) {
    case 20003:
    case 20065:
      return new CairnError(
        'AUTH_INVALID',
        `${label} did not accept the sign-in code: it was already used or is unknown (${what}). Sign in again.`,
      );
    case 20004:
      return new CairnError(
        'AUTH_EXPIRED',
        `The ${label} sign-in code expired before Cairn could use it (codes last 5 minutes; ${what}). Sign in again.`,
      );
    case 20049:
      return new CairnError(
        'AUTH_INVALID',
        `${label} rejected the sign-in's PKCE check (${what}). Sign in again.`,
      );
    case 20071:
      return new CairnError(
        'AUTH_INVALID',
        `${label} says the redirect address differs from the one used at sign-in (${what}).`,
      );
    case 20010:
      return new CairnError(
        'PERMISSION_DENIED',
        `Your ${label} account may not use this app (${what}). Ask the admin to add you to the app's availability.`,
      );
    case 20002:
    case 20024:
      return new CairnError(
        'AUTH_INVALID',
        `${label} refused the app credentials during sign-in (${what}). Check the App ID and App Secret.`,
      );
    default:
      return new CairnError('AUTH_INVALID', `${label} refused the sign-in (${what}).`);
  }
}
