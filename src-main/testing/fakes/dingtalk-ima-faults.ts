/**
 * Fault injection and small HTTP helpers shared by the DingTalk and IMA fakes. A test queues a
 * fault (`control.inject({ kind: 'rate-limit', times: 2 })`); the fake consumes it on the next
 * matching request and answers the way that platform signals the fault.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultKind =
  /** The platform's rate-limit answer. */
  | 'rate-limit'
  /** HTTP 500 with the platform's error body. */
  | 'server-error'
  /** HTTP 200 whose body is not valid JSON. */
  | 'malformed-json'
  /** The normal answer, after `delayMs`. */
  | 'slow'
  /** The platform's daily-quota answer (IMA only; DingTalk treats it as rate-limit). */
  | 'quota';

export interface Fault {
  kind: FaultKind;
  /** How many matching requests it affects. @default 1 */
  times?: number;
  /** Only requests whose path contains this string (or matches this pattern). @default every API route */
  match?: string | RegExp;
  /** For `slow`. @default 2000 */
  delayMs?: number;
  /** Overrides the platform code the fault answers with (e.g. QpsLimitForApi, 200001). */
  code?: string | number;
  /** Overrides the HTTP status of a rate-limit or quota answer (IMA: 403 by default, some clients see 200). */
  status?: number;
}

export class FaultPlan {
  private readonly pending: (Fault & { remaining: number })[] = [];

  inject(fault: Fault): void {
    this.pending.push({ ...fault, remaining: fault.times ?? 1 });
  }

  clear(): void {
    this.pending.length = 0;
  }

  /** Consumes one use of the first queued fault that applies to this path. */
  take(path: string): Fault | undefined {
    const index = this.pending.findIndex((fault) => matches(fault.match, path));
    if (index < 0) return undefined;
    const fault = this.pending[index]!;
    fault.remaining--;
    if (fault.remaining <= 0) this.pending.splice(index, 1);
    return fault;
  }
}

function matches(match: Fault['match'], path: string): boolean {
  if (match === undefined) return true;
  return typeof match === 'string' ? path.includes(match) : match.test(path);
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));
}

/** Waits, unless the server closes first (so a slow fault never keeps a test alive). */
export function delay(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

/** Listens on 127.0.0.1 at a free port; returns the base URL and a close function. */
export async function listenLocal(
  server: Server,
  timers: Set<NodeJS.Timeout>,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serialises an id-keyed page with an opaque cursor (the offset, base64url), as both platforms' tokens are opaque. */
export function page<T>(
  items: T[],
  cursor: string | undefined,
  size: number,
): { items: T[]; next: string | undefined } {
  const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) || 0 : 0;
  const slice = items.slice(offset, offset + size);
  const nextOffset = offset + slice.length;
  return {
    items: slice,
    next:
      nextOffset < items.length ? Buffer.from(String(nextOffset), 'utf8').toString('base64url') : undefined,
  };
}
