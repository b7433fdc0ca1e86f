/**
 * Shared HTTP plumbing for platform connectors: per-platform rate caps (p-queue, one or more
 * windows), timeouts, cancellation, bounded retries with the platform's reset hint or exponential
 * backoff with jitter, one token refresh on expiry, and redirects that never carry credentials to
 * another origin (credential headers are dropped; a request with a body is not redirected there
 * at all). Each connector supplies `interpret`, because every platform signals errors
 * differently (Feishu in the body `code`, Yuque in the HTTP status, …).
 */
import PQueue from 'p-queue';
import type { ErrorCode } from '@shared/errors';
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';
import { canConnect } from './can-connect';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not valid JSON. */
  json: unknown;
  /** The auth headers this attempt sent (never logged). */
  auth?: Record<string, string>;
}

export type Interpretation<T> =
  | { kind: 'ok'; value: T }
  /** Transient: wait (the platform's reset hint when given) and try again. */
  | { kind: 'retry'; code: ErrorCode; message: string; afterMs?: number }
  /** The token expired or was rejected: refresh it once, then repeat the request. */
  | { kind: 'refresh-auth'; code: ErrorCode; message: string }
  | { kind: 'error'; error: CairnError };

export interface HttpRequest {
  method?: 'GET' | 'POST';
  /** Absolute URL, or a path joined to baseUrl. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the client's timeout for this request. */
  timeoutMs?: number;
}

export interface RateWindow {
  intervalMs: number;
  intervalCap: number;
}

export interface PlatformHttpOptions {
  baseUrl: string;
  logger: Logger;
  /**
   * Requests allowed per interval (the platform's documented cap). Several windows all apply, e.g.
   * 5 per second AND 80 per minute to stay inside an hourly quota. @default {intervalMs: 1000, intervalCap: 5}
   */
  rate?: RateWindow | RateWindow[];
  /** @default 4 */
  concurrency?: number;
  /** @default 15000 */
  timeoutMs?: number;
  /** Retries after the first attempt for transient failures. @default 4 */
  maxRetries?: number;
  /** First backoff step; doubles each retry, with full jitter. @default 500 */
  backoffBaseMs?: number;
  /** @default 30000 */
  backoffMaxMs?: number;
  /** Headers added to every request (auth); called per attempt so a refreshed token is used. */
  authHeaders?: (signal?: AbortSignal) => Promise<Record<string, string>>;
  /**
   * Re-acquires credentials after an expiry signal. `rejected` holds the auth headers the refused
   * attempt sent, so a credential renewed meanwhile by another request is not renewed again.
   */
  refreshAuth?: (signal?: AbortSignal, rejected?: Record<string, string>) => Promise<void>;
  fetchImpl?: typeof fetch;
  /** Redirects followed per request (same origin: as sent; another origin: without credentials). @default 5 */
  maxRedirects?: number;
}

/**
 * Headers that may follow a redirect to another origin. Everything else may be a credential:
 * the Fetch standard drops only `Authorization` on a cross-origin redirect
 * (https://fetch.spec.whatwg.org/#http-redirect-fetch), while Yuque (`x-auth-token`), DingTalk
 * (`x-acs-dingtalk-access-token`) and IMA (`ima-openapi-apikey`) use headers of their own.
 */
const CROSS_ORIGIN_SAFE_HEADERS = new Set(['accept', 'accept-language', 'user-agent']);

export class PlatformHttp {
  /** One queue per rate window; a request runs once every window lets it (outermost first). */
  private readonly queues: PQueue[];
  private readonly options: Required<
    Pick<PlatformHttpOptions, 'timeoutMs' | 'maxRetries' | 'backoffBaseMs' | 'backoffMaxMs'>
  > &
    PlatformHttpOptions;

  constructor(options: PlatformHttpOptions) {
    const rates = [options.rate ?? { intervalMs: 1000, intervalCap: 5 }].flat();
    this.queues = rates.map(
      (rate, index) =>
        new PQueue({
          // Only the innermost queue bounds concurrency: an outer one just spaces the starts.
          concurrency: index === rates.length - 1 ? (options.concurrency ?? 4) : Number.POSITIVE_INFINITY,
          interval: rate.intervalMs,
          intervalCap: rate.intervalCap,
        }),
    );
    this.options = { timeoutMs: 15_000, maxRetries: 4, backoffBaseMs: 500, backoffMaxMs: 30_000, ...options };
  }

  url(path: string, query?: HttpRequest['query']): string {
    const base = /^https?:\/\//.test(path)
      ? path
      : this.options.baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
    const url = new URL(base);
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  async request<T>(
    callerRequest: HttpRequest,
    interpret: (response: RawResponse) => Interpretation<T>,
  ): Promise<T> {
    // The queue, the backoff and fetch each listen for 'abort' while a request waits or runs. A sync
    // passes ONE signal to all the documents it fetches at once (16), so on that signal the listeners
    // add up past Node's leak warning (MaxListenersExceededWarning at 11) though each is removed when
    // its request settles. A signal of this request's own takes them instead: AbortSignal.any follows
    // the caller's signal without adding a listener to it (Node tracks dependants internally).
    const request = callerRequest.signal
      ? { ...callerRequest, signal: AbortSignal.any([callerRequest.signal]) }
      : callerRequest;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(request.signal);
      let response: RawResponse;
      try {
        response = await this.enqueue(() => this.send(request), request.signal);
      } catch (error) {
        const failure = this.normaliseTransportError(error, request);
        if (!isResetConnection(error, request) || attempt >= this.options.maxRetries) throw failure;
        // A kept-alive connection the server closed just as this request went out: the request
        // never reached it, and a GET asked again on a fresh connection is safe. A refused
        // connection (nothing listening) is not retried: a dead server must fail fast. So is a
        // dropped one when nothing accepts a new connection any more (the server went away):
        // its retry would wait its turn in the rate queue, for most of a minute behind Yuque's pacing.
        const reachable = await canConnect(new URL(this.url(request.path)).origin, {
          signal: request.signal,
        });
        throwIfAborted(request.signal);
        if (!reachable) throw failure;
        await this.waitToRetry('connection reset; retrying', request, {
          code: failure instanceof CairnError ? failure.code : 'SOURCE_UNREACHABLE',
          waitMs: this.backoff(attempt),
          attempt,
        });
        continue;
      }
      const verdict = interpret(response);
      if (verdict.kind === 'ok') return verdict.value;
      if (verdict.kind === 'error') throw verdict.error;
      if (verdict.kind === 'refresh-auth') {
        if (refreshed || !this.options.refreshAuth) throw new CairnError(verdict.code, verdict.message);
        refreshed = true;
        this.options.logger.info('credentials expired; refreshing once', { path: request.path });
        await this.options.refreshAuth(request.signal, response.auth);
        attempt--; // a refresh is not a retry of a transient failure
        continue;
      }
      if (attempt >= this.options.maxRetries)
        throw new CairnError(verdict.code, `${verdict.message} (gave up after ${attempt + 1} attempts)`);
      await this.waitToRetry('transient platform error; retrying', request, {
        code: verdict.code,
        waitMs: verdict.afterMs ?? this.backoff(attempt),
        attempt,
      });
    }
  }

  /** Says why a request is asked again and after how long, then waits that long (or until it is cancelled). */
  private async waitToRetry(
    why: string,
    request: HttpRequest,
    retry: { code: ErrorCode; waitMs: number; attempt: number },
  ): Promise<void> {
    this.options.logger.warn(why, {
      path: request.path,
      code: retry.code,
      waitMs: Math.round(retry.waitMs),
      attempt: retry.attempt + 1,
    });
    await sleep(retry.waitMs, request.signal);
  }

  /** Full-jitter exponential backoff (AWS architecture blog, "Exponential Backoff And Jitter"). */
  backoff(attempt: number): number {
    const ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Runs `work` once every rate window allows it. */
  private enqueue<T>(work: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const run = this.queues.reduceRight<() => Promise<T>>(
      (inner, queue) => () => queue.add(inner, { signal }),
      work,
    );
    return run();
  }

  private async send(request: HttpRequest): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs ?? this.options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const auth = this.options.authHeaders ? await this.options.authHeaders(request.signal) : {};
    let headers: Record<string, string> = { accept: 'application/json', ...auth, ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    let url = this.url(request.path, request.query);
    let method = request.method ?? 'GET';
    const origin = new URL(url).origin;
    let res: Response;
    for (let redirects = 0; ; redirects++) {
      // Redirects are followed here, not by fetch, so credentials never reach another origin.
      res = await (this.options.fetchImpl ?? fetch)(url, {
        method,
        headers,
        body,
        signal,
        redirect: 'manual',
      });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) break;
      await res.body?.cancel();
      if (redirects >= (this.options.maxRedirects ?? 5))
        throw new CairnError('SOURCE_ERROR', `Too many redirects from ${safeHost(url)}.`);
      const next = new URL(location, url);
      if (next.protocol !== 'https:' && next.protocol !== 'http:')
        throw new CairnError('SOURCE_ERROR', `${safeHost(url)} redirected to an unsupported address.`);
      // A request with a body (token requests carry the app secret in theirs) never goes to another
      // origin: a 307/308 would send the body along, and any answer from there (even after a 303
      // turned it into a GET) did not come from the platform, so a Test must not pass on it.
      if (next.origin !== origin && request.body !== undefined)
        throw new CairnError(
          'SOURCE_ERROR',
          `${safeHost(url)} redirected a ${method} request to another site (${safeHost(next.toString())}); Cairn did not follow it, so nothing was sent there. Check the base URL.`,
          { details: { reason: 'http.cross-origin-redirect' } },
        );
      // 303 (and 301/302 after a POST, as browsers do) becomes a GET without a body (RFC 9110 §15.4).
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      if (next.origin !== origin)
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => CROSS_ORIGIN_SAFE_HEADERS.has(name.toLowerCase())),
        );
      this.options.logger.debug('following a redirect', {
        from: safeHost(url),
        to: safeHost(next.toString()),
        crossOrigin: next.origin !== origin,
      });
      url = next.toString();
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json, auth };
  }

  private normaliseTransportError(error: unknown, request: HttpRequest): Error {
    if (error instanceof CairnError) return error;
    if (request.signal?.aborted) return new CairnError('CANCELLED', 'Cancelled.');
    // The origin it could not reach lets a sync tell a dead server from one failed request (source-watch.ts).
    const origin = new URL(this.url(request.path)).origin;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new CairnError('TIMEOUT', `No answer from ${new URL(this.url(request.path)).host} in time.`, {
        details: { origin },
      });
    }
    const host = safeHost(this.url(request.path));
    const detail =
      error instanceof Error
        ? ((error.cause as { code?: string } | undefined)?.code ?? error.message)
        : String(error);
    return new CairnError('SOURCE_UNREACHABLE', `Cannot reach ${host} (${detail}).`, {
      cause: error,
      details: { origin },
    });
  }

  /** Waits for queued requests (tests, shutdown). */
  async idle(): Promise<void> {
    for (const queue of this.queues) await queue.onIdle();
  }

  clear(): void {
    for (const queue of this.queues) queue.clear();
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CairnError('CANCELLED', 'Cancelled.'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CairnError('CANCELLED', 'Cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parses a "seconds until reset" header (e.g. Feishu's x-ogw-ratelimit-reset) into milliseconds. */
export function resetHeaderMs(headers: Headers, name: string, capMs = 60_000): number | undefined {
  const raw = headers.get(name);
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(capMs, seconds * 1000);
}

/** Transport failures of a connection that was open and then dropped (not refused), on a GET. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
function isResetConnection(error: unknown, request: HttpRequest): boolean {
  if ((request.method ?? 'GET') !== 'GET' || request.signal?.aborted) return false;
  if (!(error instanceof Error) || error instanceof CairnError) return false;
  const code = (error.cause as { code?: string } | undefined)?.code;
  return code !== undefined && RESET_CODES.has(code);
}
