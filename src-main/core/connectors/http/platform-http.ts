/**
 * Shared HTTP plumbing for platform connectors: per-platform rate caps (p-queue), timeouts,
 * cancellation, bounded retries with the platform's reset hint or exponential backoff with
 * jitter, and one token refresh on expiry. Each connector supplies `interpret`, because every
 * platform signals errors differently (Feishu in the body `code`, Yuque in the HTTP status, …).
 */
import PQueue from 'p-queue';
import type { ErrorCode } from '@shared/errors';
import { CairnError, throwIfAborted } from '../../errors';
import type { Logger } from '../../logging/logger';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not valid JSON. */
  json: unknown;
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

export interface PlatformHttpOptions {
  baseUrl: string;
  logger: Logger;
  /** Requests allowed per interval (the platform's documented cap). @default {intervalMs: 1000, intervalCap: 5} */
  rate?: { intervalMs: number; intervalCap: number };
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
  /** Re-acquires credentials after an expiry signal. */
  refreshAuth?: (signal?: AbortSignal) => Promise<void>;
  fetchImpl?: typeof fetch;
}

export class PlatformHttp {
  private readonly queue: PQueue;
  private readonly options: Required<
    Pick<PlatformHttpOptions, 'timeoutMs' | 'maxRetries' | 'backoffBaseMs' | 'backoffMaxMs'>
  > &
    PlatformHttpOptions;

  constructor(options: PlatformHttpOptions) {
    const rate = options.rate ?? { intervalMs: 1000, intervalCap: 5 };
    this.queue = new PQueue({
      concurrency: options.concurrency ?? 4,
      interval: rate.intervalMs,
      intervalCap: rate.intervalCap,
    });
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
      const response = await this.queue
        .add(() => this.send(request), { signal: request.signal })
        .catch((error: unknown) => {
          throw this.normaliseTransportError(error, request);
        });
      const verdict = interpret(response);
      if (verdict.kind === 'ok') return verdict.value;
      if (verdict.kind === 'error') throw verdict.error;
      if (verdict.kind === 'refresh-auth') {
        if (refreshed || !this.options.refreshAuth) throw new CairnError(verdict.code, verdict.message);
        refreshed = true;
        this.options.logger.info('credentials expired; refreshing once', { path: request.path });
        await this.options.refreshAuth(request.signal);
        attempt--; // a refresh is not a retry of a transient failure
        continue;
      }
      if (attempt >= this.options.maxRetries)
        throw new CairnError(verdict.code, `${verdict.message} (gave up after ${attempt + 1} attempts)`);
      const wait = verdict.afterMs ?? this.backoff(attempt);
      this.options.logger.warn('transient platform error; retrying', {
        path: request.path,
        code: verdict.code,
        waitMs: Math.round(wait),
        attempt: attempt + 1,
      });
      await sleep(wait, request.signal);
    }
  }

  /** Full-jitter exponential backoff (AWS architecture blog, "Exponential Backoff And Jitter"). */
  backoff(attempt: number): number {
    const ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private async send(request: HttpRequest): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs ?? this.options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const auth = this.options.authHeaders ? await this.options.authHeaders(request.signal) : {};
    const headers: Record<string, string> = { accept: 'application/json', ...auth, ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    const res = await (this.options.fetchImpl ?? fetch)(this.url(request.path, request.query), {
      method: request.method ?? 'GET',
      headers,
      body,
      signal,
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  private normaliseTransportError(error: unknown, request: HttpRequest): Error {
    if (error instanceof CairnError) return error;
    if (request.signal?.aborted) return new CairnError('CANCELLED', 'Cancelled.');
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return new CairnError('TIMEOUT', `No answer from ${new URL(this.url(request.path)).host} in time.`);
    }
    const host = safeHost(this.url(request.path));
    const detail =
      error instanceof Error
        ? ((error.cause as { code?: string } | undefined)?.code ?? error.message)
        : String(error);
    return new CairnError('SOURCE_UNREACHABLE', `Cannot reach ${host} (${detail}).`, { cause: error });
  }

  /** Waits for queued requests (tests, shutdown). */
  async idle(): Promise<void> {
    await this.queue.onIdle();
  }

  clear(): void {
    this.queue.clear();
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
