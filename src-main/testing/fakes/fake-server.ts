/**
 * Shared scaffolding for the fake platform servers: a real node:http server on 127.0.0.1 (port 0),
 * JSON request parsing, a request log for assertions, and fault injection that each platform
 * renders in its own error shape (Feishu's body code, Yuque's HTTP status, …).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** The platform's rate-limit answer; `resetSeconds` feeds its reset header where it has one. */
  | { kind: 'rate-limit'; resetSeconds?: number }
  | { kind: 'server-error' }
  /** Answers normally after a delay (for client timeouts). */
  | { kind: 'slow'; delayMs: number }
  /** HTTP 200 with a truncated JSON body. */
  | { kind: 'malformed-json' }
  /** The server goes away: this request's connection is dropped and nothing accepts a connection any more. */
  | { kind: 'go-away' };

export interface FaultOptions {
  /** How many matching requests get the fault. @default 1 */
  times?: number;
  /** Only requests whose path contains this string (or matches this pattern). */
  path?: string | RegExp;
}

interface FaultRule {
  fault: Fault;
  remaining: number;
  path: string | RegExp | undefined;
}

/** Faults queued by tests, consumed by matching requests in order. */
export class FaultInjector {
  private rules: FaultRule[] = [];

  inject(fault: Fault, options: FaultOptions = {}): void {
    this.rules.push({ fault, remaining: options.times ?? 1, path: options.path });
  }

  take(path: string): Fault | undefined {
    const rule = this.rules.find((r) => r.remaining > 0 && matches(r.path, path));
    if (!rule) return undefined;
    rule.remaining--;
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return rule.fault;
  }

  clear(): void {
    this.rules = [];
  }
}

function matches(filter: string | RegExp | undefined, path: string): boolean {
  if (filter === undefined) return true;
  return typeof filter === 'string' ? path.includes(filter) : filter.test(path);
}

export interface FakeRequest {
  method: string;
  url: URL;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or undefined. */
  body: unknown;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  /** Serialised as JSON, unless `raw` is given. */
  body?: unknown;
  raw?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** When it arrived, by the process clock (`Date.now()`): a test with a fake clock reads pacing off it. */
  at: number;
  /** The fault served instead of a normal answer, if any. */
  fault?: Fault['kind'];
}

export interface FakeServerOptions {
  handle(request: FakeRequest): FakeResponse | Promise<FakeResponse>;
  /** The platform's shape for an injected rate-limit or server error. */
  renderFault(
    fault: Extract<Fault, { kind: 'rate-limit' | 'server-error' }>,
    request: FakeRequest,
  ): FakeResponse;
  faults: FaultInjector;
}

export interface RunningFakeServer {
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeServer(options: FakeServerOptions): Promise<RunningFakeServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        const request: FakeRequest = {
          method: req.method ?? 'GET',
          url,
          path: url.pathname,
          headers: req.headers,
          body,
        };
        const record: RecordedRequest = {
          method: request.method,
          path: request.path,
          query: Object.fromEntries(url.searchParams),
          status: 0,
          at: Date.now(),
        };
        requests.push(record);
        let response: FakeResponse;
        const fault = options.faults.take(request.path);
        if (fault) record.fault = fault.kind;
        if (fault?.kind === 'go-away') {
          server.close();
          server.closeAllConnections();
          return;
        }
        if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (fault?.kind === 'rate-limit' || fault?.kind === 'server-error')
          response = options.renderFault(fault, request);
        else {
          try {
            response = await options.handle(request);
          } catch (error) {
            response = {
              status: 500,
              raw: `fake server bug: ${error instanceof Error ? error.message : String(error)}`,
            };
          }
          if (fault?.kind === 'malformed-json')
            response = { status: 200, raw: '{"data": [{"id": 1, "title": "trunc' };
        }
        record.status = response.status;
        if (res.destroyed) return;
        const payload = response.raw ?? JSON.stringify(response.body ?? {});
        res.writeHead(response.status, {
          'content-type': 'application/json; charset=utf-8',
          ...response.headers,
        });
        res.end(payload);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Offset/limit or cursor pages share this: the slice and whether more follow. */
export function pageOf<T>(
  items: T[],
  offset: number,
  size: number,
): { items: T[]; hasMore: boolean; next: number } {
  const start = Math.max(0, offset);
  const slice = items.slice(start, start + size);
  return { items: slice, hasMore: start + size < items.length, next: start + size };
}

/** A snippet around the first match, with the match wrapped in the platform's highlight tags. */
export function highlightSnippet(
  text: string,
  query: string,
  open: string,
  close: string,
  radius = 40,
): string | null {
  const index = text.toLowerCase().indexOf(query.toLowerCase());
  if (index < 0) return null;
  const start = Math.max(0, index - radius);
  const end = Math.min(text.length, index + query.length + radius);
  const before = text.slice(start, index).replace(/\s+/g, ' ');
  const match = text.slice(index, index + query.length);
  const after = text.slice(index + query.length, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${before}${open}${match}${close}${after}${end < text.length ? '…' : ''}`;
}
