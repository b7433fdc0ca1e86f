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
      // The spec documents 429 but no rate-limit header or number; third-party reports give about
      // 5,000 requests an hour per token. A short standard Retry-After is waited out; otherwise the
      // hour's budget is spent and the sync defers the rest (RATE_LIMITED, sync-engine.ts).
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
          `Yuque's request limit was reached (${detail}). Yuque allows about 5,000 requests an hour per token; Cairn carries on at the next sync.`,
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
