/**
 * Feishu/Lark response shapes (the fields Cairn reads) and how answers map to Cairn errors.
 * Feishu signals everything in the body `code` of a {code,msg,data} envelope; the HTTP status is
 * not reliable (connectors.md §1.1, §1.6; codes from larksuite/cli internal/output/lark_errors.go,
 * https://open.feishu.cn/document/server-docs/api-call-guide/generic-error-code).
 */
import { CairnError } from '../../errors';
import { resetHeaderMs, type Interpretation, type RawResponse } from '../http/platform-http';

export interface FeishuEnvelope<T> {
  code: number;
  msg?: string;
  data: T;
}

export interface FeishuSpace {
  space_id: string;
  name: string;
}

export interface FeishuWikiNode {
  space_id: string;
  node_token: string;
  obj_token: string;
  obj_type: string;
  node_type?: string;
  origin_node_token?: string;
  has_child?: boolean;
  title?: string;
  obj_edit_time?: string;
  url?: string;
}

export interface FeishuDriveFile {
  token: string;
  name: string;
  type: string;
  url?: string;
  modified_time?: string;
  shortcut_info?: { target_type?: string; target_token?: string };
}

export interface FeishuSearchUnit {
  title_highlighted?: string;
  summary_highlighted?: string;
  entity_type?: string;
  result_meta?: { token?: string; url?: string };
}

export interface FeishuPage<T> {
  items?: T[];
  has_more?: boolean;
  page_token?: string;
}

/** Codes meaning "this access token is missing, malformed, invalid or expired": re-acquire it once. */
export const TOKEN_EXPIRED_CODES = new Set([99991661, 99991663, 99991668, 99991671, 99991677]);
const APP_REJECTED_CODES = new Set([99991543, 99991662, 99991673]);
const SCOPE_MISSING_CODES = new Set([99991672, 99991676, 99991679]);
const NOT_FOUND_CODES = new Set([1770002, 131005]);
export const RATE_LIMITED_CODE = 99991400;

function codeOf(json: unknown): { code: number | undefined; msg: string } {
  const body = json as { code?: unknown; msg?: unknown } | undefined;
  return {
    code: typeof body?.code === 'number' ? body.code : undefined,
    msg: typeof body?.msg === 'string' ? body.msg : '',
  };
}

/** Interprets one answer of the open-apis; `what` names the request in messages (never a token). */
export function interpretFeishu<T>(
  what: string,
  label: string,
): (response: RawResponse) => Interpretation<T> {
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
          'SOURCE_ERROR',
          `${label} sent a malformed answer (not a {code,msg,data} JSON envelope) to ${what}.`,
        ),
      };
    }
    if (code === 0) return { kind: 'ok', value: response.json as T };
    const detail = `${what}: code ${code}${msg ? ` (${msg})` : ''}`;
    const details = { platformCode: code };
    if (code === RATE_LIMITED_CODE)
      return {
        kind: 'retry',
        code: 'RATE_LIMITED',
        message: `${label} rate limit reached for ${detail}`,
        afterMs: resetMs,
      };
    if (TOKEN_EXPIRED_CODES.has(code))
      return {
        kind: 'refresh-auth',
        code: 'AUTH_EXPIRED',
        message: `${label} access token was rejected for ${detail}`,
      };
    if (APP_REJECTED_CODES.has(code))
      return {
        kind: 'error',
        error: new CairnError('AUTH_INVALID', `${label} rejected the app credentials for ${detail}.`, {
          details,
        }),
      };
    if (SCOPE_MISSING_CODES.has(code))
      return {
        kind: 'error',
        error: new CairnError(
          'PERMISSION_DENIED',
          `${label} app is missing a permission scope for ${detail}.`,
          { details },
        ),
      };
    if (NOT_FOUND_CODES.has(code) || response.status === 404)
      return {
        kind: 'error',
        error: new CairnError('NOT_FOUND', `${label} could not find ${detail}.`, { details }),
      };
    if (response.status >= 500)
      return { kind: 'retry', code: 'SOURCE_ERROR', message: `${label} server error for ${detail}` };
    return {
      kind: 'error',
      error: new CairnError('SOURCE_ERROR', `${label} refused ${detail}.`, { details }),
    };
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
