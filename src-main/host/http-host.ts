/**
 * The headless host: the same contract as the Electron IPC, over HTTP on 127.0.0.1.
 *   POST /api/<domain>.<method>   JSON body = the method's one argument → Result JSON
 *   GET  /api/events?token=…      server-sent events: `data: {"name": …, "payload": …}`
 *   GET  /?token=…                the built renderer, with the token injected
 * Every API request needs the per-run token and a matching Host/Origin (see request-guard.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CairnApi } from '@shared/contract';
import type { ErrorCode } from '@shared/errors';
import type { EventBus } from '../core/events/event-bus';
import type { Logger } from '../core/logging/logger';
import { createApiDispatcher, resolveChannel, withExternalOpener } from '../transport/api-dispatcher';
import { serveEventStream } from './event-stream';
import { readBody } from './request-body';
import { checkOrigin, checkToken, newHostToken } from './request-guard';
import { injectToken, readStaticFile } from './static-files';

export interface HttpHostOptions {
  api: CairnApi;
  events: EventBus;
  /** The built renderer (out/renderer); null serves the API only. */
  rendererDir: string | null;
  /** @default 0 (a free port) */
  port?: number;
  /** @default a random 192-bit token per run */
  token?: string;
  logger?: Logger;
  /** Opens a link after core allowed it (the OS opener); absent: links are only checked. */
  openExternal?: (url: string) => Promise<void>;
  /** @default 15000 */
  heartbeatMs?: number;
  /** Larger API request bodies are answered 413. @default 1 MiB */
  maxBodyBytes?: number;
  /** An event-stream client this far behind, and not catching up for `eventStallMs`, is dropped (it reconnects). @default 1 MiB */
  maxEventBacklogBytes?: number;
  /** @default 2000 */
  eventStallMs?: number;
}

export interface HttpHost {
  /** The address to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

// The UI is served from this host only; nothing inline, nothing from elsewhere.
export const HOST_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, code: ErrorCode, message: string): void {
  sendJson(response, status, { ok: false, error: { code, message } });
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const token = options.token ?? newHostToken();
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const maxBacklogBytes = options.maxEventBacklogBytes ?? 1024 * 1024;
  const api = options.openExternal ? withExternalOpener(options.api, options.openExternal) : options.api;
  const dispatch = createApiDispatcher(api, options.logger);
  const streams = new Set<ServerResponse>();
  let port = 0;

  async function handleApi(
    request: IncomingMessage,
    response: ServerResponse,
    channel: string,
  ): Promise<void> {
    if (request.method !== 'POST')
      return sendError(response, 405, 'INVALID_ARGUMENT', 'Use POST for API calls.');
    if (!resolveChannel(channel))
      return sendError(response, 404, 'NOT_FOUND', `Unknown method "${channel.slice(0, 80)}".`);
    // A JSON content type forces a CORS preflight on cross-site fetches, which this host never answers.
    const type = request.headers['content-type'] ?? '';
    const read = await readBody(request, maxBodyBytes);
    if (read.kind === 'too-large') {
      response.setHeader('connection', 'close');
      return sendError(
        response,
        413,
        'INVALID_ARGUMENT',
        `Request body too large: the limit is ${formatBytes(maxBodyBytes)}.`,
      );
    }
    const body = read.text;
    if (body.trim() !== '' && !type.startsWith('application/json'))
      return sendError(response, 415, 'INVALID_ARGUMENT', 'Send JSON (Content-Type: application/json).');
    let input: unknown;
    try {
      input = body.trim() === '' ? undefined : JSON.parse(body);
    } catch {
      return sendError(response, 400, 'INVALID_ARGUMENT', 'The request body is not valid JSON.');
    }
    sendJson(response, 200, await dispatch(channel, input));
  }

  function handleEvents(request: IncomingMessage, response: ServerResponse): void {
    streams.add(response);
    serveEventStream(request, response, BASE_HEADERS, {
      events: options.events,
      heartbeatMs,
      maxBacklogBytes,
      stallMs: options.eventStallMs ?? 2_000,
      logger: options.logger,
      onClose: () => streams.delete(response),
    });
  }

  async function handleStatic(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return sendError(response, 405, 'INVALID_ARGUMENT', 'Method not allowed.');
    const isIndex = url.pathname === '/' || url.pathname === '/index.html';
    if (isIndex) {
      const verdict = checkToken(request, url, token);
      if (!verdict.ok) {
        response.writeHead(401, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        return void response.end(
          'Cairn: open the address printed by `cairn serve` (it carries the access token).\n',
        );
      }
      const file = options.rendererDir ? await readStaticFile(options.rendererDir, 'index.html') : null;
      if (!file) {
        response.writeHead(503, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        return void response.end('Cairn: the UI is not built yet. Run `npm run build`, then reload.\n');
      }
      response.writeHead(200, {
        ...BASE_HEADERS,
        'content-type': file.contentType,
        'content-security-policy': HOST_CSP,
      });
      return void response.end(injectToken(file.body.toString('utf8'), token));
    }
    const file = options.rendererDir ? await readStaticFile(options.rendererDir, url.pathname) : null;
    if (!file) return sendError(response, 404, 'NOT_FOUND', 'Not found.');
    response.writeHead(200, {
      ...BASE_HEADERS,
      'content-type': file.contentType,
      'cache-control': 'no-cache',
    });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const origin = checkOrigin(request, port);
    if (!origin.ok) return sendError(response, origin.status, 'PERMISSION_DENIED', origin.message);
    const work = async () => {
      if (!url.pathname.startsWith('/api/')) return handleStatic(request, response, url);
      const verdict = checkToken(request, url, token);
      if (!verdict.ok) return sendError(response, verdict.status, 'PERMISSION_DENIED', verdict.message);
      if (url.pathname === '/api/events')
        return request.method === 'GET'
          ? handleEvents(request, response)
          : sendError(response, 405, 'INVALID_ARGUMENT', 'Use GET for the event stream.');
      return handleApi(request, response, url.pathname.slice('/api/'.length));
    };
    work().catch((error: unknown) => {
      options.logger?.error('http host request failed', { error });
      if (!response.headersSent) sendError(response, 500, 'INTERNAL', 'Internal error.');
      else response.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  options.logger?.info('headless host listening', { origin });

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      for (const stream of streams) stream.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
