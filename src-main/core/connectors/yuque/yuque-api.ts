/**
 * How Yuque's answers map to Cairn errors. Yuque signals errors with real HTTP statuses (the spec's
 * components.responses: 400, 401, 403, 404, 422, 429 访问频率超限, 500) and a JSON `{message}`
 * (read by the official yuque-mcp-server, src/utils/error.ts). Shapes are checked per endpoint in
 * yuque-schemas.ts.
 */
import { CairnError } from '../../errors';
import { resetHeaderMs, type Interpretation, type RawResponse } from '../http/platform-http';

function messageOf(json: unknown): string {
  const message = (json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message ? message : 'no message';
}

/** A Retry-After longer than this is not waited out inside a sync: the rest of the documents are deferred. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The API base from what the user typed: a site or space root (`https://<space>.yuque.com`, a
 * private deployment's host) gets `/api/v2`, as the official MCP server (yuque/yuque-mcp-server
 * src/config.ts normalizeYuqueBaseURL: "Site roots are normalized to /api/v2") and CLI
 * (yuque/yuque-cli src/api.js: `${endpoint}/api/v2`) do; a URL with a path (the full API URL) is
 * kept as it is. Empty gives the default site's API.
 */
export function yuqueApiBase(configured: unknown, fallback: string): string {
  const raw = String(configured ?? '')
    .trim()
    .replace(/\/+$/, '');
  if (!raw) return fallback;
  try {
    const url = new URL(raw);
    if (url.pathname === '' || url.pathname === '/') return `${url.origin}/api/v2`;
  } catch {
    // Not a URL: kept as typed, and the first request says it cannot reach it.
  }
  return raw;
}

/**
 * Interprets one Yuque answer; `what` names the request in messages (never a token). The JSON body
 * is returned as is, to be checked with the endpoint's schema.
 */
export function interpretYuque(what: string): (response: RawResponse) => Interpretation<unknown> {
  return (response) => {
    const { status } = response;
    if (status >= 200 && status < 300) {
      if (response.json === undefined || typeof response.json !== 'object' || response.json === null) {
        return {
          kind: 'error',
          error: new CairnError(
            'UNEXPECTED_RESPONSE',
            `Yuque answered ${what} with something that is not JSON.`,
            {
              details: { platform: 'Yuque', endpoint: what, field: '(the whole body)' },
            },
          ),
        };
      }
      return { kind: 'ok', value: response.json };
    }
    const detail = `${what}: HTTP ${status} (${messageOf(response.json)})`;
    if (status === 429) {
      // The spec documents 429 (访问频率超限) but no number and no rate-limit header: Cairn says what
      // Yuque answered. A short standard Retry-After is waited out; otherwise the sync defers the
      // rest (RATE_LIMITED, sync-engine.ts).
      const afterMs = resetHeaderMs(response.headers, 'retry-after', Number.POSITIVE_INFINITY);
      if (afterMs !== undefined && afterMs <= MAX_RETRY_AFTER_MS)
        return {
          kind: 'retry',
          code: 'RATE_LIMITED',
          message: `Yuque rate limit reached for ${detail}`,
          afterMs,
        };
      return {
        kind: 'error',
        error: new CairnError(
          'RATE_LIMITED',
          `Yuque answered that its request limit was reached (${detail}${afterMs === undefined ? ', no Retry-After' : `, Retry-After ${Math.round(afterMs / 1000)} s`}); Cairn carries on at the next sync.`,
          { details: afterMs === undefined ? {} : { retryAfterMs: afterMs } },
        ),
      };
    }
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
