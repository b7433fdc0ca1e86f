/**
 * The redirect end of an OAuth sign-in from a native app (RFC 8252 §7.3): a one-shot HTTP server
 * on 127.0.0.1 that waits for the platform to send the browser back with `code` and `state`.
 * https://www.rfc-editor.org/rfc/rfc8252#section-7.3
 *
 * - Listens on the IPv4 loopback literal only (RFC 8252 §8.3: not "localhost", not 0.0.0.0).
 * - A callback whose `state` is not ours is answered and ignored: it cannot inject a code, and
 *   it cannot end the sign-in the person is doing either.
 * - The first callback with our `state` is the only one used; the page the browser shows waits
 *   for `handleCode` (the token exchange) so it can say whether the sign-in really worked.
 * - Timeout and AbortSignal end the wait; the port is closed in every case.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CairnError } from '../errors';
import { callbackPage, type CallbackOutcome } from './callback-page';

export interface LoopbackReceiverOptions {
  /** The state the authorize URL carries; callbacks with any other state are ignored. */
  expectedState: string;
  /** Called once with the authorization code; its failure fails the sign-in. */
  handleCode: (code: string) => Promise<void>;
  /** The port registered as the redirect URL; 0 takes a free one (only where the platform allows any port). @default 0 */
  port?: number;
  /** @default '/callback' */
  path?: string;
  /** Authorization codes of most platforms live minutes (Feishu: 5 min). @default 300000 */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface LoopbackReceiver {
  /** `http://127.0.0.1:<port>/callback`, the redirect_uri to send. */
  redirectUri: string;
  port: number;
  /** Settles once: resolves after a successful `handleCode`; rejects on denial, timeout, cancel or a failed exchange. The port is closed by then. */
  done: Promise<void>;
}

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

function answer(response: ServerResponse, status: number, outcome: CallbackOutcome, detail?: string): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, HEADERS);
  response.end(callbackPage(outcome, detail));
}

export async function startLoopbackReceiver(options: LoopbackReceiverOptions): Promise<LoopbackReceiver> {
  const path = options.path ?? '/callback';
  const timeoutMs = options.timeoutMs ?? 300_000;
  if (options.signal?.aborted) throw new CairnError('CANCELLED', 'Sign-in cancelled.');
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const settled = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  let used = false;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return void response.end('Not found.\n');
    }
    if (url.searchParams.get('state') !== options.expectedState)
      return answer(response, 400, 'unknown-request');
    if (used) return answer(response, 410, 'used');
    used = true;
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      answer(response, 200, 'denied');
      // RFC 6749 §4.1.2.1 error codes; Feishu sends only access_denied (obtain-oauth-code page).
      const reason =
        error === 'access_denied' || !error
          ? 'You declined the sign-in in the browser.'
          : `The sign-in page answered "${error.slice(0, 80)}".`;
      return settle.reject(new CairnError('PERMISSION_DENIED', reason));
    }
    options.handleCode(code).then(
      () => {
        answer(response, 200, 'signed-in');
        settle.resolve();
      },
      (failure: unknown) => {
        answer(response, 200, 'failed', failure instanceof Error ? failure.message : undefined);
        settle.reject(failure);
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new CairnError(
              'INVALID_ARGUMENT',
              `Port ${options.port} on 127.0.0.1 is in use, so the sign-in cannot receive its answer. Close the program using it, or set another sign-in port (and register that redirect URL in the app's settings).`,
            )
          : new CairnError(
              'INTERNAL',
              `Could not listen on 127.0.0.1:${options.port ?? 0}: ${error.message}`,
            ),
      );
    });
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const timer = setTimeout(
    () =>
      settle.reject(
        new CairnError(
          'TIMEOUT',
          `No answer from the sign-in page within ${Math.round(timeoutMs / 1000)} s. Start the sign-in again.`,
        ),
      ),
    timeoutMs,
  );
  const onAbort = () => settle.reject(new CairnError('CANCELLED', 'Sign-in cancelled.'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const done = settled.finally(async () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await new Promise<void>((resolve) => {
      // The answer page was written before settling; closing idle keep-alive sockets frees the port now.
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 1000).unref();
    });
  });
  // A caller that only awaits later must not see an unhandled rejection in between.
  done.catch(() => {});
  return { redirectUri: `http://127.0.0.1:${port}${path}`, port, done };
}
