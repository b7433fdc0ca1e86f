/**
 * How Feishu/Lark answers map to Cairn errors. Open-apis answer a `{code, msg, data}` envelope and
 * signal in the body `code`; the HTTP status is documented per API and not always meaningful
 * (docs/connectors.md "Feishu / Lark: error codes" lists each code with its page). Shapes of `data`
 * are checked per endpoint (feishu-schemas.ts).
 */
import { CairnError } from '../../errors';
import { resetHeaderMs, type Interpretation, type RawResponse } from '../http/platform-http';

/** "request trigger frequency limit" (频控策略); search and export have their own 429 codes. */
export const RATE_LIMITED_CODE = 99991400;
const RATE_LIMITED_CODES = new Set([RATE_LIMITED_CODE, 1277001, 1069923]);
/** 本月 API 调用次数已达上限 (通用错误码): nothing helps until next month or an upgrade. */
const MONTHLY_QUOTA_CODE = 99991403;
/** Access token missing or malformed (99991661/99991671), tenant token invalid (99991663), user token expired (99991677), search's 401 (1274011). */
export const TOKEN_EXPIRED_CODES = new Set([99991661, 99991663, 99991668, 99991671, 99991677, 1274011]);
/** App credentials refused: 10014 app secret invalid / app unusable, 10003 bad app_id (tenant token endpoint), 99991543, 99991662, 99991673. */
const APP_REJECTED_CODES = new Set([10003, 10014, 99991543, 99991662, 99991673]);
/** The app lacks the scope (99991672), the token does (99991676), the user did not grant it (99991679). */
const SCOPE_MISSING_CODES = new Set([99991672, 99991676, 99991679]);

/**
 * The scope Cairn's sign-in asks for that opens each API family, named when Feishu's refusal does not
 * list the scopes itself (the pages' "权限要求"; sheets:spreadsheet:read from the official CLI's
 * `sheets +read`, docs/connectors.md "Scopes").
 */
const SCOPE_OF_ENDPOINT: [RegExp, string][] = [
  [/\/sheets\//, 'sheets:spreadsheet:read'],
  [/\/bitable\//, 'bitable:app:readonly'],
  [/\/docs\/v1\/content/, 'docs:document.content:read'],
  [/\/docx\//, 'docx:document:readonly'],
  [/\/wiki\//, 'wiki:wiki:readonly'],
  [/\/search\//, 'search:docs:read'],
  [/\/drive\//, 'drive:drive:readonly'],
];

/**
 * The scopes a refusal names: `error.permission_violations[].subject` (any one of them will do), as
 * the official CLI reads them (larksuite/cli cmd/root.go extractRequiredScopes), else the scope that
 * opens the endpoint.
 */
export function missingScopes(json: unknown, what: string): string[] {
  const violations = (json as { error?: { permission_violations?: unknown } } | undefined)?.error
    ?.permission_violations;
  const named = Array.isArray(violations)
    ? violations
        .map((violation) => (violation as { subject?: unknown } | null)?.subject)
        .filter((subject): subject is string => typeof subject === 'string' && subject.trim() !== '')
    : [];
  if (named.length > 0) return [...new Set(named)];
  const fallback = SCOPE_OF_ENDPOINT.find(([pattern]) => pattern.test(what))?.[1];
  return fallback ? [fallback] : [];
}

/** What a missing scope means and how to fix it, by who lacks it. */
function scopeMessage(label: string, code: number, scopes: string[], detail: string): string {
  const list =
    scopes.length > 1 ? `one of the scopes ${scopes.join(', ')}` : `the scope ${scopes[0] ?? '(not named)'}`;
  if (code === 99991672)
    return `The ${label} app lacks ${list} for ${detail}. Enable it in the developer console (Permissions & Scopes) and publish a new app version.`;
  return `Your ${label} sign-in does not include ${list} for ${detail}. Enable it for the app in the developer console, make sure the connection's Sign-in scopes include it, then sign in again.`;
}
/** Gone: docx 1770002/1770003, wiki 131005, docs content 2889906 (deleted) / 2889914 (token not found), drive 1061007, sheets 1310214/1310249. */
const NOT_FOUND_CODES = new Set([1770002, 1770003, 131005, 2889906, 2889914, 1061007, 1310214, 1310249]);
/** No permission on this one document: docs content 2889902, docx 1770032, wiki 131006, drive 1061004, sheets 1310213. */
const DOCUMENT_DENIED_CODES = new Set([2889902, 1770032, 131006, 1061004, 1310213]);
/** Too large to export: docs content 2889925 (10 MB, HTTP 500), raw content 1770033. Retrying cannot help. */
const TOO_LARGE_CODES = new Set([2889925, 1770033]);
/** "请稍后重试": wiki 131001 rpc fail. */
const RETRY_LATER_CODES = new Set([131001]);
/** "请勿重试": wiki 131007 internal error. */
const NO_RETRY_CODES = new Set([131007]);

function codeOf(json: unknown): { code: number | undefined; msg: string } {
  const body = json as { code?: unknown; msg?: unknown } | undefined;
  return {
    code: typeof body?.code === 'number' ? body.code : undefined,
    msg: typeof body?.msg === 'string' ? body.msg : '',
  };
}

/** Interprets one answer of the open-apis; `what` names the request in messages (never a token). */
export function interpretFeishu(
  what: string,
  label: string,
): (response: RawResponse) => Interpretation<unknown> {
  return (response) => {
    const { code, msg } = codeOf(response.json);
    const resetMs = resetHeaderMs(response.headers, 'x-ogw-ratelimit-reset');
    if (code === undefined) {
      if (response.status === 429)
        return {
          kind: 'retry',
          code: 'RATE_LIMITED',
          message: `${label} rate limit reached for ${what}`,
          afterMs: resetMs,
        };
      if (response.status >= 500)
        return {
          kind: 'retry',
          code: 'SOURCE_ERROR',
          message: `${label} server error (HTTP ${response.status}) for ${what}`,
        };
      return {
        kind: 'error',
        error: new CairnError(
          'UNEXPECTED_RESPONSE',
          `${label} answered ${what} without the {code, msg, data} envelope (HTTP ${response.status}).`,
          { details: { platform: label, endpoint: what, field: 'code' } },
        ),
      };
    }
    if (code === 0) return { kind: 'ok', value: response.json };
    const detail = `${what}: code ${code}${msg ? ` (${msg})` : ''}`;
    const details = { platformCode: code };
    const fail = (
      errorCode: ConstructorParameters<typeof CairnError>[0],
      message: string,
    ): Interpretation<unknown> => ({
      kind: 'error',
      error: new CairnError(errorCode, message, { details }),
    });
    if (RATE_LIMITED_CODES.has(code) || response.status === 429)
      return {
        kind: 'retry',
        code: 'RATE_LIMITED',
        message: `${label} rate limit reached for ${detail}`,
        afterMs: resetMs,
      };
    if (code === MONTHLY_QUOTA_CODE)
      return fail(
        'QUOTA_EXCEEDED',
        `${label} says this organisation's API calls for the month are used up (${detail}); the remaining documents wait for a later sync. An administrator can upgrade the ${label} plan.`,
      );
    // 99991668 with "not support": this API does not take a user token at all; a refresh would not help.
    if (code === 99991668 && /not support/i.test(msg))
      return fail('PERMISSION_DENIED', `${label} does not accept a user access token for ${detail}.`);
    if (TOKEN_EXPIRED_CODES.has(code))
      return {
        kind: 'refresh-auth',
        code: 'AUTH_EXPIRED',
        message:
          code === 99991663
            ? `${label} rejected the access token for ${detail}: it expired, or this API does not accept an app (tenant) token`
            : `${label} access token was rejected for ${detail}`,
      };
    if (APP_REJECTED_CODES.has(code))
      return fail('AUTH_INVALID', `${label} rejected the app credentials for ${detail}.`);
    if (SCOPE_MISSING_CODES.has(code)) {
      const scopes = missingScopes(response.json, what);
      return {
        kind: 'error',
        error: new CairnError('PERMISSION_DENIED', scopeMessage(label, code, scopes, detail), {
          details: {
            platformCode: code,
            reason: 'feishu.missing-scope',
            params: { scopes: scopes.join(', ') },
          },
        }),
      };
    }
    if (DOCUMENT_DENIED_CODES.has(code))
      return fail('PERMISSION_DENIED', `${label} gives no permission for ${detail}.`);
    if (NOT_FOUND_CODES.has(code) || response.status === 404)
      return fail('NOT_FOUND', `${label} could not find ${detail}.`);
    if (TOO_LARGE_CODES.has(code))
      return fail(
        'UNSUPPORTED',
        `${label} will not export it: the content is over its size limit (${detail}).`,
      );
    if (RETRY_LATER_CODES.has(code))
      return { kind: 'retry', code: 'SOURCE_ERROR', message: `${label} asked to retry later for ${detail}` };
    if (response.status >= 500 && !NO_RETRY_CODES.has(code))
      return { kind: 'retry', code: 'SOURCE_ERROR', message: `${label} server error for ${detail}` };
    return fail('SOURCE_ERROR', `${label} refused ${detail}.`);
  };
}

/** Search v2 marks matches with <h>/<hb> tags (larksuite/cli lark-doc-search skill doc). */
export function stripHighlight(text: string | undefined): string {
  return (text ?? '')
    .replace(/<\/?hb?>/gi, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

export function unixSecondsToIso(value: string | number | undefined): string | null {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n > 0
    ? new Date(n * 1000).toISOString()
    : null;
}
