/**
 * Yuque Open API v2 response shapes (the fields Cairn reads) and how its answers map to Cairn
 * errors. Yuque signals errors with real HTTP statuses and a JSON `{message}` (connectors.md §2.1).
 */
import { CairnError } from '../../errors';
import { resetHeaderMs, type Interpretation, type RawResponse } from '../http/platform-http';

export interface YuqueUser {
  id: number;
  login: string;
  name?: string;
}

export interface YuqueBook {
  id: number;
  slug: string;
  name: string;
  namespace: string;
}

export interface YuqueDoc {
  id: number;
  slug: string;
  title: string;
  type?: string;
  updated_at?: string;
  content_updated_at?: string;
}

export interface YuqueSearchResult {
  id: number;
  type: string;
  title: string;
  summary?: string;
  url?: string;
  info?: string;
  target?: { id?: number; book?: { name?: string } };
}

export interface YuqueEnvelope<T> {
  data: T;
  meta?: { total?: number; pageNo?: number; pageSize?: number };
}

function messageOf(json: unknown): string {
  const message = (json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message ? message : 'no message';
}

/** Interprets one Yuque answer; `what` names the request in messages (never a token). */
export function interpretYuque<T>(what: string): (response: RawResponse) => Interpretation<YuqueEnvelope<T>> {
  return (response) => {
    const { status } = response;
    if (status >= 200 && status < 300) {
      if (response.json === undefined || typeof response.json !== 'object' || response.json === null) {
        return {
          kind: 'error',
          error: new CairnError('SOURCE_ERROR', `Yuque sent a malformed (non-JSON) answer to ${what}.`),
        };
      }
      return { kind: 'ok', value: response.json as YuqueEnvelope<T> };
    }
    const detail = `${what}: HTTP ${status} (${messageOf(response.json)})`;
    // The spec lists 429 without documenting rate-limit headers; honour a standard Retry-After if one comes.
    if (status === 429)
      return {
        kind: 'retry',
        code: 'RATE_LIMITED',
        message: `Yuque rate limit reached for ${detail}`,
        afterMs: resetHeaderMs(response.headers, 'retry-after'),
      };
    if (status >= 500)
      return { kind: 'retry', code: 'SOURCE_ERROR', message: `Yuque server error for ${detail}` };
    if (status === 401)
      return {
        kind: 'error',
        error: new CairnError('AUTH_INVALID', `Yuque rejected the token for ${detail}.`),
      };
    if (status === 403)
      return {
        kind: 'error',
        error: new CairnError('PERMISSION_DENIED', `The Yuque token has no permission for ${detail}.`),
      };
    if (status === 404)
      return { kind: 'error', error: new CairnError('NOT_FOUND', `Yuque could not find ${detail}.`) };
    return { kind: 'error', error: new CairnError('SOURCE_ERROR', `Yuque refused ${detail}.`) };
  };
}

/** Yuque wraps search matches in `<em>`; the snippet shown to users is plain text. */
export function stripEmphasis(text: string | undefined): string {
  return (text ?? '')
    .replace(/<\/?em>/gi, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
